// The live view: poll a HolderSource, diff snapshots into appeared/gone events.
// Cheap by design: the processes that matter (a test run's tree, given by `focusPids`) are polled
// every `focusIntervalMs`, the whole system at a pace (core/poll-pace.ts) that starts at
// `fullIntervalMs` and, given `slowestIntervalMs`, slows down while nothing changes. A change feed
// (native/<os>/) is read every `fullIntervalMs`: a file opened under the dirs brings a full scan at
// once, processes that started or ended a scan of just them. `scanNow()` runs a full scan immediately
// (a failure line was just seen). Polls never overlap.
import type { Holder, WatchEvent } from '../contract/holders.js';
import type { ChangeFeed, HolderSource, ScanResult, WatchDir } from './platform.js';
import type { Clock } from './clock.js';
import { HolderTable } from './holder-table.js';
import { PollPace } from './poll-pace.js';
import { SerialQueue } from './serial-queue.js';

// Defined with the contract, so the renderer keys rows exactly as core does.
export { holderKey } from '../contract/identity.js';

export interface PollOutcome {
  /** When the scan began and ended: each process was read somewhere in between. */
  startedAtMs: number;
  endedAtMs: number;
  events: WatchEvent[];
  result: ScanResult;
  full: boolean;
}

export interface WatcherOptions {
  source: HolderSource;
  dirs: readonly WatchDir[];
  clock: Clock;
  fullIntervalMs: number;
  /** The longest wait between full scans while they find nothing new; default fullIntervalMs (a fixed pace). */
  slowestIntervalMs?: number;
  /** Each quiet full scan makes the next wait this many times longer (default 2). */
  paceGrowth?: number;
  /** Cheap signs of change, read every fullIntervalMs; the caller owns it. */
  changes?: ChangeFeed;
  /** Period for the processes that matter; defaults to fullIntervalMs (no focus polling). */
  focusIntervalMs?: number;
  /** The processes that matter right now (e.g. the test run's tree). */
  focusPids?: () => readonly number[];
  /** Runs before each poll, awaited (e.g. refresh the run's process tree so focusPids is current). */
  beforePoll?: (full: boolean) => Promise<void>;
  onPoll: (outcome: PollOutcome) => void;
  onError: (error: unknown) => void;
}

export class Watcher {
  private readonly holders = new HolderTable();
  private readonly polls = new SerialQueue();
  private readonly pace: PollPace;
  private timer: (() => void) | null = null;
  private disposed = false;

  constructor(private readonly options: WatcherOptions) {
    this.pace = new PollPace({
      fastMs: options.fullIntervalMs,
      slowestMs: options.slowestIntervalMs ?? options.fullIntervalMs,
      growth: options.paceGrowth ?? 2,
    });
  }

  /** The holders as of the last poll. */
  current(): Holder[] {
    return this.holders.current();
  }

  /** The wait between full scans as the pace stands: it grows while nothing changes. */
  fullScanIntervalMs(): number {
    return this.pace.currentIntervalMs();
  }

  /** Starts polling: a full scan now, then on the schedule. */
  start(): void {
    this.schedule(0);
  }

  /** One scan right away (queued behind a poll in flight): the whole system, or only the focus pids. */
  scanNow({ full = true }: { full?: boolean } = {}): Promise<PollOutcome> {
    const whole = full || !this.options.focusPids;
    // Asked for a full scan (a failure line, a run's start): the fast pace again.
    if (whole) this.pace.changed();
    return this.polls.run(() => this.poll(whole, []));
  }

  /** Idempotent; the source and the change feed belong to the caller. */
  dispose(): void {
    this.disposed = true;
    this.timer?.();
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    if (this.disposed) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      this.polls
        .run(() => this.tick())
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => this.schedule(this.nextDelayMs()));
    }, delayMs);
  }

  /** Until the pace's next full scan, or sooner: the next focus poll, the next look at the change feed. */
  private nextDelayMs(): number {
    const { fullIntervalMs, focusIntervalMs, focusPids, changes } = this.options;
    let delayMs = Math.max(0, this.pace.dueAtMs() - this.options.clock.now());
    if (changes) delayMs = Math.min(delayMs, fullIntervalMs);
    if (focusPids) delayMs = Math.min(delayMs, focusIntervalMs ?? fullIntervalMs);
    return delayMs;
  }

  /** In the poll queue: the feed is read while no scan of this watcher runs (the feed may look at the dirs). */
  private async tick(): Promise<void> {
    const news = this.options.changes?.take();
    if (news?.underDirs) this.pace.hurry();
    if (this.pace.isDue(this.options.clock.now())) {
      await this.poll(true, []);
      return;
    }
    const started = news?.pids ?? [];
    if (this.options.focusPids || started.length > 0) await this.poll(false, started);
  }

  /** `extraPids`: scanned besides the focus pids in a poll that is not full. */
  private async poll(full: boolean, extraPids: readonly number[]): Promise<PollOutcome> {
    await this.options.beforePoll?.(full);
    const pids = full ? undefined : [...(this.options.focusPids?.() ?? []), ...extraPids];
    const startedAtMs = this.options.clock.now();
    const result = await this.options.source.scan({ dirs: this.options.dirs, ...(pids ? { pids } : {}) });
    const diff = this.holders.update(result.holders, pids ? new Set(pids) : undefined);
    const endedAtMs = this.options.clock.now();
    const changed = diff.appeared.length > 0 || diff.gone.length > 0;
    if (full) this.pace.scanned(endedAtMs, changed);
    else if (changed) this.pace.changed();
    const at = new Date(endedAtMs).toISOString();
    const events: WatchEvent[] = [
      ...diff.gone.map((holder) => ({ type: 'gone' as const, at, holder })),
      ...diff.appeared.map((holder) => ({ type: 'appeared' as const, at, holder })),
    ];
    const outcome = { startedAtMs, endedAtMs, events, result, full };
    if (!this.disposed) this.options.onPoll(outcome);
    return outcome;
  }
}

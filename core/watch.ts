// The live view: poll a HolderSource, diff snapshots into appeared/gone events.
// Cheap by design: the processes that matter (a test run's tree, given by `focusPids`) are polled
// every `focusIntervalMs`, the whole system every `fullIntervalMs`, and `scanNow()` runs a full
// scan immediately (a failure line was just seen). Polls never overlap.
import type { Holder, WatchEvent } from '../contract/holders.js';
import type { HolderSource, ScanResult, WatchDir } from './platform.js';
import type { Clock } from './clock.js';
import { HolderTable } from './holder-table.js';
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
  private timer: (() => void) | null = null;
  private lastFullAtMs = -Infinity;
  private disposed = false;

  constructor(private readonly options: WatcherOptions) {}

  /** The holders as of the last poll. */
  current(): Holder[] {
    return this.holders.current();
  }

  /** Starts polling: a full scan now, then on the schedule. */
  start(): void {
    this.schedule(0);
  }

  /** One scan right away (queued behind a poll in flight): the whole system, or only the focus pids. */
  scanNow({ full = true }: { full?: boolean } = {}): Promise<PollOutcome> {
    return this.enqueue(full || !this.options.focusPids);
  }

  /** Idempotent; the source belongs to the caller. */
  dispose(): void {
    this.disposed = true;
    this.timer?.();
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    if (this.disposed) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      const { fullIntervalMs } = this.options;
      const dueFull = this.options.clock.now() - this.lastFullAtMs >= fullIntervalMs || !this.options.focusPids;
      this.enqueue(dueFull)
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => this.schedule(this.nextDelayMs()));
    }, delayMs);
  }

  private nextDelayMs(): number {
    const { fullIntervalMs, focusIntervalMs } = this.options;
    return this.options.focusPids ? Math.min(focusIntervalMs ?? fullIntervalMs, fullIntervalMs) : fullIntervalMs;
  }

  private enqueue(full: boolean): Promise<PollOutcome> {
    return this.polls.run(() => this.poll(full));
  }

  private async poll(full: boolean): Promise<PollOutcome> {
    await this.options.beforePoll?.(full);
    const pids = full ? undefined : this.options.focusPids?.();
    const startedAtMs = this.options.clock.now();
    const result = await this.options.source.scan({ dirs: this.options.dirs, ...(pids ? { pids } : {}) });
    if (full) this.lastFullAtMs = startedAtMs;
    const diff = this.holders.update(result.holders, pids ? new Set(pids) : undefined);
    const endedAtMs = this.options.clock.now();
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

// The live view: poll a HolderSource, diff snapshots into appeared/gone/changed events.
// Cheap by design: the processes that matter (a test run's tree, given by `focusPids`) are polled
// every `focusIntervalMs`, the whole system at a pace (core/poll-pace.ts) that starts at
// `fullIntervalMs` and, given `slowestIntervalMs`, slows down while nothing changes. A change feed
// (native/<os>/) is read every `fullIntervalMs`: a file opened under the dirs brings a full scan at
// once; processes that started, or ended holding something, a scan of just them. `scanNow()` runs a
// full scan immediately and brings back the fast pace (a failure line was just seen). Polls never overlap.
// While the feed has seen nothing under the dirs since a thorough full scan, the next ones ask the
// source for an idle check (ScanRequest.idleCheck): processes that held nothing are walked only if
// their fds, cwd or root changed. One thorough scan every THOROUGH_SCAN_MS bounds what that misses.
import type { Holder, WatchEvent } from '../contract/holders.js';
import type { ChangeFeed, HolderSource, ScanResult, WatchDir } from './platform.js';
import type { Clock } from './clock.js';
import { PollDiff } from './poll-diff.js';
import { PollPace } from './poll-pace.js';
import { SerialQueue } from './serial-queue.js';

// Defined with the contract, so the renderer keys rows exactly as core does.
export { holderKey } from '../contract/identity.js';

/** The longest a fd received into a process that held nothing (its fd count unchanged) goes unseen. */
export const THOROUGH_SCAN_MS = 30_000;

/**
 * What a poll scans: the whole system thoroughly, or with an idle check (ScanRequest.idleCheck); a
 * preview is an idle check a thorough scan follows at once, so it leaves the pace alone. Else the
 * focus pids and `pids`.
 */
type PollScope = 'thorough' | 'idle' | 'preview' | { pids: readonly number[] };

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
  /**
   * A run's watch: its own processes (focusPids) are walked every focusIntervalMs, so its full scans
   * look for strangers, and a stranger that held nothing comes to hold something by a new fd, a chdir
   * or a chroot, which an idle check (ScanRequest.idleCheck) sees. Its full scans after the first are
   * idle checks, whatever the change feed says, with a thorough one every THOROUGH_SCAN_MS and at each
   * scanNow (a failure line). What that can miss for up to THOROUGH_SCAN_MS: a stranger that opened
   * something under the dirs while closing another fd, or mapped a file and closed its fd.
   */
  strangersByIdleCheck?: boolean;
  /**
   * The first poll is of the focus pids alone, the whole system's right after: a process already
   * running when followed (`holdwatch attach`) may end before a scan of every process does, on a busy
   * Windows machine in seconds, taking the file it held to its exit with it unseen.
   */
  focusFirst?: boolean;
  /**
   * After a failed poll the next waits twice as long as the last (from fullIntervalMs), up to this; a
   * success resets it. Absent: the schedule stays as it is (a run's polls must not fall behind its tests).
   */
  maxRetryDelayMs?: number;
}

export class Watcher {
  private readonly holders = new PollDiff();
  private readonly polls = new SerialQueue();
  private readonly pace: PollPace;
  private timer: (() => void) | null = null;
  private failedPolls = 0;
  private disposed = false;
  /** Nothing under the dirs reported since the last thorough full scan. */
  private quietSinceThorough = false;
  private lastThoroughAtMs = -Infinity;

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

  /** Starts polling: a full scan now (after a poll of the focus pids, with focusFirst), then on the schedule. */
  start(): void {
    if (this.options.focusFirst && this.options.focusPids)
      void this.polls.run(() => this.poll({ pids: [] })).catch((error: unknown) => this.options.onError(error));
    this.schedule(0);
  }

  /** One scan right away (queued behind a poll in flight): the whole system, or only the focus pids. */
  scanNow({ full = true }: { full?: boolean } = {}): Promise<PollOutcome> {
    const whole = full || !this.options.focusPids;
    // Asked for a full scan (a failure line, a run's start): the fast pace again.
    if (whole) this.pace.changed();
    return this.polls.run(() => this.poll(whole ? 'thorough' : { pids: [] }));
  }

  /**
   * The last scan of a run's watch (strangersByIdleCheck): an idle check of the whole system while the
   * last thorough scan is under THOROUGH_SCAN_MS old, then the focus pids walked whole, so the run's own
   * processes never rest on the idle check; otherwise a thorough scan. A stranger it skips held nothing
   * and kept its fd count, cwd and root since: what the run's periodic idle checks already accept.
   */
  async scanLast(): Promise<PollOutcome> {
    const nowMs = this.options.clock.now();
    if (!this.options.strangersByIdleCheck || !this.options.focusPids || nowMs - this.lastThoroughAtMs >= THOROUGH_SCAN_MS) return this.scanNow();
    await this.polls.run(() => this.poll('idle'));
    return this.polls.run(() => this.poll({ pids: [] }));
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
        .then(
          () => (this.failedPolls = 0),
          (error: unknown) => {
            this.failedPolls++;
            this.options.onError(error);
          },
        )
        .finally(() => this.schedule(this.nextDelayMs()));
    }, delayMs);
  }

  /** The wait before the next poll, as scheduled now (a retry's backoff included). */
  get nextPollDelayMs(): number {
    return this.nextDelayMs();
  }

  /**
   * Until the pace's next full scan, or sooner: the next focus poll, the next look at the change feed.
   * After failed polls, with maxRetryDelayMs, the backoff instead.
   */
  private nextDelayMs(): number {
    const { fullIntervalMs, focusIntervalMs, focusPids, changes, maxRetryDelayMs } = this.options;
    if (maxRetryDelayMs !== undefined && this.failedPolls > 0)
      return Math.min(fullIntervalMs * 2 ** Math.min(this.failedPolls, 20), Math.max(maxRetryDelayMs, fullIntervalMs));
    let delayMs = Math.max(0, this.pace.dueAtMs() - this.options.clock.now());
    if (changes) delayMs = Math.min(delayMs, fullIntervalMs);
    if (focusPids) delayMs = Math.min(delayMs, focusIntervalMs ?? fullIntervalMs);
    return delayMs;
  }

  /** In the poll queue: the feed is read while no scan of this watcher runs (the feed may look at the dirs). */
  private async tick(): Promise<void> {
    const { changes, clock } = this.options;
    const news = changes?.take();
    const nowMs = clock.now();
    const strangersOnly = this.options.strangersByIdleCheck === true;
    // A run's own opens under the dirs are its focus polls' to see: they bring no thorough scan.
    const openedUnderDirs = news?.underDirs === true && !strangersOnly;
    const idleCheck = (strangersOnly || (changes?.coversTree === true && this.quietSinceThorough)) && nowMs - this.lastThoroughAtMs < THOROUGH_SCAN_MS;
    if (openedUnderDirs) {
      this.pace.hurry();
      this.quietSinceThorough = false;
    }
    if (this.pace.isDue(nowMs)) {
      // Something opened under the dirs after a quiet spell: most likely by a process whose fd count
      // moved, which the idle check shows in a fraction of a thorough scan's time; that follows at once.
      if (!idleCheck) await this.poll('thorough');
      else if (!openedUnderDirs) await this.poll('idle');
      else {
        await this.poll('preview');
        await this.poll('thorough');
      }
      return;
    }
    const changed = [...(news?.started ?? []), ...(news?.ended ?? []).filter((pid) => this.holders.holdsAnything(pid))];
    if (this.options.focusPids || changed.length > 0) await this.poll({ pids: changed });
  }

  private async poll(scope: PollScope): Promise<PollOutcome> {
    const full = typeof scope === 'string';
    const idleCheck = scope === 'idle' || scope === 'preview';
    await this.options.beforePoll?.(full);
    const pids = full ? undefined : [...(this.options.focusPids?.() ?? []), ...scope.pids];
    const startedAtMs = this.options.clock.now();
    const result = await this.options.source.scan({ dirs: this.options.dirs, ...(pids ? { pids } : {}), ...(idleCheck ? { idleCheck } : {}) });
    const diff = this.holders.update(result.holders, pids ? new Set(pids) : undefined);
    const endedAtMs = this.options.clock.now();
    const changed = diff.appeared.length > 0 || diff.gone.length > 0;
    if (full && scope !== 'preview') this.pace.scanned(endedAtMs, changed);
    else if (changed) this.pace.changed();
    if (scope === 'thorough') {
      // Events during the scan are still queued in the feed: the next look clears this again.
      this.quietSinceThorough = true;
      this.lastThoroughAtMs = endedAtMs;
    }
    const at = new Date(endedAtMs).toISOString();
    const events: WatchEvent[] = [
      ...diff.gone.map((holder) => ({ type: 'gone' as const, at, holder })),
      ...diff.appeared.map((holder) => ({ type: 'appeared' as const, at, holder })),
      ...diff.changed.map((holder) => ({ type: 'changed' as const, at, holder })),
    ];
    const outcome = { startedAtMs, endedAtMs, events, result, full };
    if (!this.disposed) this.options.onPoll(outcome);
    return outcome;
  }
}

// How often a watch scans the whole system. A scan walks every process, so a watch left open on a dir
// where nothing happens pays for every one of them: while scans find nothing new, each interval is
// `growth` times the last, up to `slowestMs`; any change brings back `fastMs` at once. A pure rule:
// the caller passes the times (its injected clock's).

export interface PollPaceOptions {
  /** The interval while holders come and go, and right after any sign of change. */
  fastMs: number;
  /** The longest interval while nothing changes; `fastMs` (the default) keeps a fixed pace. */
  slowestMs?: number;
  /** Each quiet scan makes the next interval this many times longer (default 2). */
  growth?: number;
}

export class PollPace {
  private readonly fastMs: number;
  private readonly slowestMs: number;
  private readonly growth: number;
  private intervalMs: number;
  private lastEndedAtMs = -Infinity;

  constructor(options: PollPaceOptions) {
    this.fastMs = options.fastMs;
    this.slowestMs = Math.max(options.fastMs, options.slowestMs ?? options.fastMs);
    this.growth = Math.max(1, options.growth ?? 2);
    this.intervalMs = this.fastMs;
  }

  /** The wait after the last scan before the next one, as the pace stands. */
  currentIntervalMs(): number {
    return this.intervalMs;
  }

  /** When the next scan is due: the interval counts from the end of the last, so scans never run back to back. */
  dueAtMs(): number {
    return this.lastEndedAtMs + this.intervalMs;
  }

  isDue(nowMs: number): boolean {
    return nowMs >= this.dueAtMs();
  }

  /** A scan ended at `endedAtMs`; `changed`: it saw a holder appear or go. */
  scanned(endedAtMs: number, changed: boolean): void {
    this.lastEndedAtMs = endedAtMs;
    this.intervalMs = changed ? this.fastMs : Math.min(this.slowestMs, this.intervalMs * this.growth);
  }

  /** A holder came or went outside a scan of the whole system: the fast pace again, counted from the last scan. */
  changed(): void {
    this.intervalMs = this.fastMs;
  }

  /** Something may have changed anywhere (a file under the dir was opened, a failure line): a scan is due now. */
  hurry(): void {
    this.intervalMs = this.fastMs;
    this.lastEndedAtMs = -Infinity;
  }
}

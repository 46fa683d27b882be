// Core never reads the clock or sets timers itself: the front end injects a Clock, tests a fake one.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` after `delayMs`; returns a function that cancels it. */
  setTimeout(fn: () => void, delayMs: number): () => void;
}

/** A clock tests drive by hand: `advance(ms)` runs every timer that falls due, in order. */
export class ManualClock implements Clock {
  private timers: { dueMs: number; seq: number; fn: () => void }[] = [];
  private seq = 0;

  constructor(private nowMs = 0) {}

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: () => void, delayMs: number): () => void {
    const timer = { dueMs: this.nowMs + delayMs, seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward, firing due timers one at a time (a timer may schedule another). */
  advance(ms: number): void {
    const target = this.nowMs + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.dueMs <= target).sort((a, b) => a.dueMs - b.dueMs || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = due.dueMs;
      due.fn();
    }
    this.nowMs = target;
  }
}

/**
 * `work`, or a rejection naming `what` once `ms` pass. The timer is also what keeps a Node process
 * alive meanwhile: a promise whose only waker went away (a worker gone without a reply) would
 * otherwise let the event loop drain and the process exit before its caller's record is written.
 */
export function withDeadline<T>(clock: Clock, work: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = clock.setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s; going on without it`)), ms);
    work.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}

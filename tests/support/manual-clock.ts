// A clock the core's tests drive by hand: core takes its Clock injected, so a test never waits for real time.
import type { Clock } from '../../core/clock.js';

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

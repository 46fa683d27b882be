import { describe, expect, it } from 'vitest';
import { ManualClock } from '../tests/support/manual-clock.js';
import { PollPace } from './poll-pace.js';

/** Scans whenever the pace says one is due, on a clock that moves 1 ms at a time; returns each interval waited. */
function quietIntervals(pace: PollPace, clock: ManualClock, scans: number): number[] {
  const waited: number[] = [];
  let lastMs = clock.now();
  while (waited.length < scans) {
    if (pace.isDue(clock.now())) {
      waited.push(clock.now() - lastMs);
      lastMs = clock.now();
      pace.scanned(clock.now(), false);
    }
    clock.advance(1);
  }
  return waited;
}

describe('PollPace', () => {
  it('is due at once, then waits longer after each quiet scan, up to the slowest interval', () => {
    const clock = new ManualClock(1_000);
    const pace = new PollPace({ fastMs: 100, slowestMs: 1_500 });
    expect(pace.isDue(clock.now())).toBe(true);
    pace.scanned(clock.now(), false);
    expect(quietIntervals(pace, clock, 6)).toEqual([200, 400, 800, 1_500, 1_500, 1_500]);
  });

  it('goes back to the fast interval after a scan that saw a change', () => {
    const clock = new ManualClock();
    const pace = new PollPace({ fastMs: 100, slowestMs: 2_000 });
    quietIntervals(pace, clock, 6);
    expect(pace.currentIntervalMs()).toBe(2_000);
    pace.scanned(clock.now(), true);
    expect(pace.dueAtMs()).toBe(clock.now() + 100);
    expect(quietIntervals(pace, clock, 3)).toEqual([100, 200, 400]);
  });

  it('counts a change seen between scans from the last scan, and a hurry as due now', () => {
    const clock = new ManualClock();
    const pace = new PollPace({ fastMs: 100, slowestMs: 2_000 });
    quietIntervals(pace, clock, 6);
    const lastScanMs = clock.now() - 1;
    pace.changed();
    expect(pace.dueAtMs()).toBe(lastScanMs + 100);
    pace.scanned(clock.now(), false);
    pace.hurry();
    expect(pace.isDue(clock.now())).toBe(true);
    expect(pace.currentIntervalMs()).toBe(100);
  });

  it('keeps a fixed pace without a slowest interval, or with one below the fast one', () => {
    for (const pace of [new PollPace({ fastMs: 250 }), new PollPace({ fastMs: 250, slowestMs: 10 })]) {
      pace.scanned(0, false);
      pace.scanned(250, false);
      expect(pace.currentIntervalMs()).toBe(250);
      expect(pace.dueAtMs()).toBe(500);
    }
  });

  it('grows by the given factor', () => {
    const pace = new PollPace({ fastMs: 20, slowestMs: 3_600_000, growth: 1_000 });
    pace.scanned(0, false);
    expect(pace.currentIntervalMs()).toBe(20_000);
  });
});

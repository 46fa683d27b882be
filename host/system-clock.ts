// The real clock and timers, injected into core (which never touches them itself).
import type { Clock } from '../core/clock.js';

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, delayMs) => {
    const timer = setTimeout(fn, delayMs);
    return () => clearTimeout(timer);
  },
};

// A duration's clock, from hrtime: performance.now() would load perf_hooks into every one-shot scan.
export const elapsedMs = (): number => Number(process.hrtime.bigint()) / 1e6;

// The real clock and timers, injected into core (which never touches them itself).
import { performance } from 'node:perf_hooks';
import type { Clock } from '../core/clock.js';

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, delayMs) => {
    const timer = setTimeout(fn, delayMs);
    return () => clearTimeout(timer);
  },
};

export const elapsedMs = (): number => performance.now();

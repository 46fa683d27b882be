// Core never reads the clock or sets timers itself: the front end injects a Clock, tests a fake one.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` after `delayMs`; returns a function that cancels it. */
  setTimeout(fn: () => void, delayMs: number): () => void;
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

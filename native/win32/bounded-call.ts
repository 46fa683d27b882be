// Calls the name worker runs on pool threads and stops waiting for at a deadline. A name query that
// hangs (a synchronous pipe with a read pending) never returns and keeps its thread; the worker goes
// on with the next handle instead of being killed and restarted for it (1 s and a node start-up per
// hang, against the scan's 8 s: a developer machine has dozens of such handles). When hung calls hold
// all threads but one, the worker is exhausted, and the app starts a fresh one: the backstop.
// Pure over the call it is given, so the deadline and the accounting are tested off Windows.

/** Queries a worker has in flight at once (each a name query, then for disk files a second one). */
const MAX_IN_FLIGHT = 8;

export type Bounded<T> = { value: T } | 'stalled';

export class BoundedCalls {
  /** Calls that passed their deadline and have not returned: each holds a pool thread. */
  private stuckCalls = 0;

  constructor(
    readonly deadlineMs: number,
    /** How many threads hung calls may hold before the worker must be replaced. */
    private readonly maxStuck: number,
  ) {}

  get stuck(): number {
    return this.stuckCalls;
  }

  get exhausted(): boolean {
    return this.stuckCalls >= this.maxStuck;
  }

  /** Calls worth starting at once: the threads hung calls leave, at most MAX_IN_FLIGHT, at least 1. */
  get free(): number {
    return Math.max(1, Math.min(MAX_IN_FLIGHT, this.maxStuck - this.stuckCalls));
  }

  /**
   * Starts a call; resolves with its value, or 'stalled' once the deadline passed. `release` runs when
   * the call completes, in time or late, never before: it frees what the call writes into.
   */
  run<T>(start: (done: (value: T) => void) => void, release: () => void): Promise<Bounded<T>> {
    return new Promise((resolve) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        this.stuckCalls++;
        resolve('stalled');
      }, this.deadlineMs);
      start((value) => {
        if (late)
          this.stuckCalls--; // its thread is back
        else {
          clearTimeout(timer);
          resolve({ value });
        }
        release();
      });
    });
  }
}

/** A name query's deadline in the worker: far above a disk file's answer, short enough for dozens of hangs. */
export const DEFAULT_QUERY_MS = 200;
/** The environment variable the app gives the worker its query deadline in. */
export const QUERY_MS_VARIABLE = 'HOLDWATCH_NAME_QUERY_MS';

export function queryDeadlineMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env[QUERY_MS_VARIABLE]);
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_QUERY_MS;
}

/** Query threads a name worker gets (UV_THREADPOOL_SIZE: koffi's async calls run on libuv's pool). */
export const NAME_QUERY_THREADS = 16;

/** From the pool size the worker was started with: all threads but one may be held by hung calls. */
export function maxStuckCalls(env: NodeJS.ProcessEnv): number {
  const threads = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(threads) && threads > 1 ? threads - 1 : 3; // libuv's default pool is 4
}

// Connects the store to the service: events are queued and folded in once per frame with
// useStore.setState (module level, no store actions); a slow sweep settles new/gone marks.
import type { HoldwatchService } from '../../contract/service.js';
import { applyBatch, type Incoming } from './apply-events.js';
import { sweepRows } from './rows.js';
import { useStore } from './store.js';

export interface Scheduler {
  /** Runs `fn` once soon (a frame, in the browser). */
  soon(fn: () => void): void;
  every(fn: () => void, periodMs: number): () => void;
  now(): number;
}

export const browserScheduler: Scheduler = {
  soon: (fn) => void requestAnimationFrame(() => fn()),
  every: (fn, periodMs) => {
    const timer = setInterval(fn, periodMs);
    return () => clearInterval(timer);
  },
  now: () => Date.now(),
};

/**
 * What an empty table folds in its first frame, however much has arrived: every fold sorts the whole
 * table, so the first screen is painted from these before the rest is folded in, a frame later.
 */
export const FIRST_FOLD_ITEMS = 1_000;

/** Returns the function that disconnects everything it subscribed. */
export function wireStore(service: HoldwatchService, scheduler: Scheduler = browserScheduler): () => void {
  let queue: Incoming[] = [];
  const push = (item: Incoming) => {
    if (queue.length === 0) scheduler.soon(flush);
    queue.push(item);
  };
  const flush = () => {
    let batch = queue;
    queue = [];
    if (batch.length > FIRST_FOLD_ITEMS && useStore.getState().watch.rows.size === 0) {
      queue = batch.slice(FIRST_FOLD_ITEMS);
      batch = batch.slice(0, FIRST_FOLD_ITEMS);
      scheduler.soon(flush);
    }
    if (batch.length > 0) useStore.setState((state) => applyBatch(state, batch, scheduler.now()));
  };
  const offs = [
    service.onWatchEvents((watchId, events) => {
      for (const event of events) push({ channel: 'watch', watchId, event });
    }),
    service.onWatchStatus((watchId, status) => push({ channel: 'watch-status', watchId, status })),
    service.onRunEvent((runId, event) => push({ channel: 'run', runId, event })),
    scheduler.every(() => {
      const rows = sweepRows(useStore.getState().watch.rows, scheduler.now());
      if (rows) useStore.setState((state) => ({ watch: { ...state.watch, rows } }));
    }, 1000),
  ];
  return () => offs.forEach((off) => off());
}

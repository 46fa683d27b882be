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

/** Returns the function that disconnects everything it subscribed. */
export function wireStore(service: HoldwatchService, scheduler: Scheduler = browserScheduler): () => void {
  let queue: Incoming[] = [];
  const push = (item: Incoming) => {
    if (queue.length === 0) scheduler.soon(flush);
    queue.push(item);
  };
  const flush = () => {
    const batch = queue;
    queue = [];
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

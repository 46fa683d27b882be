// Folds the service's events into the store. Pure: (state, events) -> the slices that changed.
// Events for a watch or run the UI no longer shows are ignored (a late event after Stop).
import type { RunEvent, WatchEvent, WatchStatus } from '../../core/api.js';
import { holderKey } from '../../core/api-contract.js';
import { markGone, upsertRow } from './rows.js';
import { OUTPUT_KEEP_CHARS, type HoldwatchState } from './slices.js';

export type Incoming = { channel: 'watch'; watchId: string; event: WatchEvent } | { channel: 'watch-status'; watchId: string; status: WatchStatus } | { channel: 'run'; runId: string; event: RunEvent };

/** One batch (everything that arrived in one frame) in one update: 20,000 rows are one render, not 20,000. */
export function applyBatch(state: HoldwatchState, batch: readonly Incoming[], nowMs: number): Partial<HoldwatchState> {
  let rows = state.watch.rows;
  let watch = state.watch;
  let run = state.run;
  const rowsForWrite = () => (rows === state.watch.rows ? (rows = new Map(rows)) : rows);
  for (const item of batch) {
    if (item.channel === 'watch') {
      if (item.watchId !== watch.watchId) continue;
      const { event } = item;
      if (event.type === 'appeared') upsertRow(rowsForWrite(), holderKey(event.holder), event.holder, null, Date.parse(event.at), nowMs, watch.scans > 0);
      else markGone(rowsForWrite(), holderKey(event.holder), nowMs);
    } else if (item.channel === 'watch-status') {
      if (item.watchId !== watch.watchId) continue;
      const { status } = item;
      watch = status.error
        ? { ...watch, phase: 'error', error: status.error, watchId: null }
        : { ...watch, phase: 'live', scans: status.scans, denied: status.denied, error: null, scanner: status.scanner ?? watch.scanner };
    } else {
      if (item.runId !== run.runId) continue;
      const { event } = item;
      switch (event.type) {
        case 'started':
          run = { ...run, phase: 'running', command: event.command, cwd: event.cwd };
          break;
        case 'test':
          run = { ...run, lastTest: event.event };
          break;
        case 'holder':
          if (event.change === 'appeared') upsertRow(rowsForWrite(), holderKey(event.holder), event.holder, event.holder.attribution, Date.parse(event.at), nowMs);
          else markGone(rowsForWrite(), holderKey(event.holder), nowMs);
          break;
        case 'failure':
          run = { ...run, failures: [...run.failures, event.failure] };
          break;
        case 'output':
          run = { ...run, output: (run.output + event.text).slice(-OUTPUT_KEEP_CHARS) };
          break;
        case 'record':
          run = { ...run, record: event.record, failures: event.record.failures.length >= run.failures.length ? event.record.failures : run.failures };
          break;
        case 'ended': {
          const record = event.record ?? run.record;
          run = { ...run, phase: event.error ? 'error' : 'ended', exitCode: event.exitCode, error: event.error, record, failures: record?.failures ?? run.failures };
          // The final attribution (verdicts settle when tests end) onto the rows still shown.
          if (record) for (const h of record.holders) {
            const key = holderKey(h);
            const row = rows.get(key);
            if (row) rowsForWrite().set(key, { ...row, attribution: h.attribution });
          }
          break;
        }
      }
    }
  }
  const changed: Partial<HoldwatchState> = {};
  if (rows !== state.watch.rows || watch !== state.watch) changed.watch = { ...watch, rows };
  if (run !== state.run) changed.run = run;
  return changed;
}

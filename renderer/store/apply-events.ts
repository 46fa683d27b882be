// Folds the service's events into the store. Pure: (state, events) -> the slices that changed.
// Events for a watch or run the UI no longer shows are ignored (a late event after Stop).
import type { WatchEvent } from '../../contract/holders.js';
import type { RunEvent, RunRecord } from '../../contract/runs.js';
import type { WatchStatus } from '../../contract/service.js';
import { holderKey, uncachedHolderKey } from '../../contract/identity.js';
import { changeRow, markGone, upsertRow, type Row } from './rows.js';
import { OUTPUT_KEEP_CHARS, type HoldwatchState } from './slices.js';

export type Incoming =
  | { channel: 'watch'; watchId: string; event: WatchEvent }
  | { channel: 'watch-status'; watchId: string; status: WatchStatus }
  | { channel: 'run'; runId: string; event: RunEvent };

/** What one batch's handlers share: the rows copied once on first write, and each poll's time parsed once. */
interface BatchContext {
  rowsForWrite: () => Map<string, Row>;
  /** The record's attribution onto the rows still shown (all of it at the run's end). */
  settleVerdicts: (record: RunRecord, final: boolean) => void;
  msOf: (at: string) => number;
  nowMs: number;
}

/** One batch (everything that arrived in one frame) in one update: 20,000 rows are one render, not 20,000. */
export function applyBatch(state: HoldwatchState, batch: readonly Incoming[], nowMs: number): Partial<HoldwatchState> {
  let rows = state.watch.rows;
  let watch = state.watch;
  let run = state.run;
  const rowsForWrite = () => (rows === state.watch.rows ? (rows = new Map(rows)) : rows);
  // While the run goes, only a verdict that changed (a failure makes a blocker, a test's end a leak);
  // at its end, all of it (last sightings, stacks).
  const settleVerdicts = (record: RunRecord, final: boolean) => {
    for (const h of record.holders) {
      const key = holderKey(h);
      const row = rows.get(key);
      if (row && (final || row.attribution?.verdict !== h.attribution.verdict)) rowsForWrite().set(key, { ...row, attribution: h.attribution });
    }
  };
  // A poll's events share one `at`: each distinct one is parsed once, not 20,000 times.
  let lastAt = '';
  let lastAtMs = NaN;
  const msOf = (at: string) => {
    if (at !== lastAt) {
      lastAt = at;
      lastAtMs = Date.parse(at);
    }
    return lastAtMs;
  };
  const context: BatchContext = { rowsForWrite, settleVerdicts, msOf, nowMs };
  for (const item of batch) {
    if (item.channel === 'watch') {
      if (item.watchId !== watch.watchId) continue;
      const { event } = item;
      const key = uncachedHolderKey(event.holder);
      if (event.type === 'appeared') upsertRow(rowsForWrite(), key, event.holder, null, msOf(event.at), nowMs, watch.scans > 0);
      else if (event.type === 'changed') changeRow(rowsForWrite(), key, event.holder, null);
      else markGone(rowsForWrite(), key, nowMs);
    } else if (item.channel === 'watch-status') {
      if (item.watchId === watch.watchId) watch = withStatus(watch, item.status);
    } else if (item.runId === run.runId) run = withRunEvent(run, item.event, context);
  }
  const changed: Partial<HoldwatchState> = {};
  if (rows !== state.watch.rows || watch !== state.watch) changed.watch = { ...watch, rows };
  if (run !== state.run) changed.run = run;
  return changed;
}

function withStatus(watch: HoldwatchState['watch'], status: WatchStatus): HoldwatchState['watch'] {
  if (status.error) return { ...watch, phase: 'error', error: status.error, watchId: null };
  return {
    ...watch,
    phase: 'live',
    scans: status.scans,
    denied: status.denied,
    protectedDenied: status.protectedDenied ?? 0,
    error: null,
    retrying: status.retrying ?? null,
    scanner: status.scanner ?? watch.scanner,
  };
}

function withRunEvent(run: HoldwatchState['run'], event: RunEvent, { rowsForWrite, settleVerdicts, msOf, nowMs }: BatchContext): HoldwatchState['run'] {
  switch (event.type) {
    case 'started':
      return { ...run, phase: 'running', command: event.command, cwd: event.cwd };
    case 'test':
      return { ...run, lastTest: event.event };
    case 'holder':
      if (event.change === 'appeared')
        upsertRow(rowsForWrite(), uncachedHolderKey(event.holder), event.holder, event.holder.attribution, msOf(event.at), nowMs);
      else if (event.change === 'changed') changeRow(rowsForWrite(), uncachedHolderKey(event.holder), event.holder, event.holder.attribution);
      else markGone(rowsForWrite(), uncachedHolderKey(event.holder), nowMs);
      return run;
    case 'failure':
      // A replayed history (another window attached to the same terminal run) repeats failures.
      if (run.failures.some((f) => f.at === event.failure.at && f.text === event.failure.text)) return run;
      return { ...run, failures: [...run.failures, event.failure] };
    case 'output':
      return { ...run, output: (run.output + event.text).slice(-OUTPUT_KEEP_CHARS) };
    case 'record':
      settleVerdicts(event.record, false);
      return { ...run, record: event.record, failures: event.record.failures.length >= run.failures.length ? event.record.failures : run.failures };
    case 'ended': {
      const record = event.record ?? run.record;
      if (record) settleVerdicts(record, true);
      return {
        ...run,
        phase: event.error ? 'error' : 'ended',
        exitCode: event.exitCode,
        error: event.error,
        record,
        failures: record?.failures ?? run.failures,
        headline: event.headline ?? null,
      };
    }
  }
  return run;
}

// A run's journal replayed into a RunRecorder, for the recorder's unit tests: the run-start entry every
// journal opens with, then the entries a test gives.
import type { Holder } from '../../contract/holders.js';
import type { JournalEntry } from '../../contract/journal.js';
import { RunRecorder } from '../../core/run/run-recorder.js';
import { holderRow } from './holder-row.js';

/** The entry every journal opens with: a pytest run in /src watching /w. */
export function runStartEntry(startedAtMs: number, command = ['pytest']): JournalEntry {
  const versions = { holdwatch: '0', node: 'v24', os: 'linux' };
  return { t: 'run-start', runId: 'r', command, cwd: '/src', watched: ['/w'], platform: 'linux', atMs: startedAtMs, versions };
}

/** A file held by a pytest process under /w. */
export function pytestHolder(pid: number, path: string, processStartedAtMs: number): Holder {
  return holderRow(pid, path, { processStartedAtMs, processName: 'python3', commandLine: 'python3 -m pytest', handle: 'fd 5' });
}

export function replayedRun(startedAtMs: number, entries: readonly JournalEntry[], command = ['pytest']): RunRecorder {
  const recorder = new RunRecorder();
  recorder.apply(runStartEntry(startedAtMs, command));
  for (const entry of entries) recorder.apply(entry);
  return recorder;
}

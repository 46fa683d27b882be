// A run's journal replayed into a RunRecorder, for the recorder's unit tests: the run-start entry every
// journal opens with, then the entries a test gives.
import type { JournalEntry } from '../../contract/journal.js';
import { RunRecorder } from '../../core/run/run-recorder.js';

export function replayedRun(startedAtMs: number, entries: readonly JournalEntry[], command = ['pytest']): RunRecorder {
  const recorder = new RunRecorder();
  const versions = { holdwatch: '0', node: 'v24', os: 'linux' };
  recorder.apply({ t: 'run-start', runId: 'r', command, cwd: '/src', watched: ['/w'], platform: 'linux', atMs: startedAtMs, versions });
  for (const entry of entries) recorder.apply(entry);
  return recorder;
}

// Processes that outlive the test command, and the test that spawned them when only a probe saw it.
import { describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import type { JournalEntry } from '../../contract/journal.js';
import type { StackLookup } from '../../contract/stacks.js';
import { replayedRun } from '../../tests/support/recorder-journal.js';

const START = Date.UTC(2026, 11, 4, 9, 0, 0);
const WRITER_PID = 42;

/** A detached writer (its parent gone, tied to the run by its tag), started after every test ended. */
const writer = (path: string, startedAtMs: number): Holder => ({
  pid: WRITER_PID,
  ppid: 1,
  processStartedAtMs: startedAtMs,
  processName: 'node',
  commandLine: 'node writer.cjs',
  user: 'u',
  kind: 'file',
  path,
  deleted: false,
  handle: 'fd 21',
  watchedDir: '/w',
});
const detached = { ancestry: [{ pid: WRITER_PID, name: 'node', commandLine: 'node writer.cjs' }], byTagOnly: true };

/** The node probe's record of the spawn call, in the test's process, with the test running there. */
const spawnedBy = (test: string | undefined): StackLookup => ({
  found: true,
  matchedBy: 'child-pid',
  viaPid: null,
  stack: {
    kind: 'spawn',
    runtime: 'node',
    pid: 7,
    atMs: START + 150,
    ...(test === undefined ? {} : { test }),
    api: 'child_process.spawn',
    path: null,
    fd: null,
    argv: ['node', 'writer.cjs'],
    childPid: WRITER_PID,
    frames: [],
  },
});

function attributionOf(entries: JournalEntry[]) {
  return replayedRun(START, entries, ['node', '--test'])
    .record()
    .holders.map((h) => h.attribution);
}

/** Two 1 ms tests; the writer, spawned in the first, starts after both ended and opens after the exit. */
const lateWriter = (exitAtMs: number, seenFromMs: number): JournalEntry[] => [
  { t: 'test', event: { type: 'test-start', name: 'spawns', atMs: START + 150 } },
  { t: 'test', event: { type: 'test-end', name: 'spawns', outcome: 'passed', atMs: START + 151 } },
  { t: 'test', event: { type: 'test-start', name: 'neighbour', atMs: START + 152 } },
  { t: 'test', event: { type: 'test-end', name: 'neighbour', outcome: 'passed', atMs: START + 153 } },
  { t: 'command-exit', atMs: exitAtMs, exitCode: 0 },
  { t: 'appeared', atMs: seenFromMs + 3, scanStartedAtMs: seenFromMs, key: 'k', holder: writer('/w/late.db', START + 400), member: detached },
];

describe('RunRecorder: processes that outlive the command', () => {
  it('a holder seen by a scan begun after the command exited is outlived-run, opened in no test', () => {
    const [a] = attributionOf([...lateWriter(START + 300, START + 600), { t: 'run-end', atMs: START + 2000, exitCode: 0, lastSeen: { k: START + 1900 } }]);
    expect(a).toMatchObject({ verdict: 'outlived-run', verdictBy: 'poll', openedDuring: null });
  });

  it('a holder whose command line the scan could not read is named by the one the run read when it joined', () => {
    const unread: JournalEntry[] = lateWriter(START + 300, START + 600).map((e) =>
      e.t === 'appeared' ? { ...e, holder: { ...e.holder, commandLine: '' } } : e,
    );
    const record = replayedRun(
      START,
      [...unread, { t: 'run-end', atMs: START + 2000, exitCode: 0, lastSeen: { k: START + 1900 } }],
      ['node', '--test'],
    ).record();
    expect(record.holders.map((h) => h.commandLine)).toEqual(['node writer.cjs']);
  });

  it('a scan that began before the exit does not make it outlived: its process may have exited with the command', () => {
    const [a] = attributionOf([
      ...lateWriter(START + 300, START + 250),
      { t: 'gone', atMs: START + 310, key: 'k', lastSeenAtMs: START + 250 },
      { t: 'run-end', atMs: START + 2000, exitCode: 0, lastSeen: {} },
    ]);
    expect(a!.verdict).toBe('in-run');
  });

  it("names the test the probe recorded at the spawn call, though the child started after that test's end", () => {
    const stacks = (spawn: StackLookup): JournalEntry => ({ t: 'stacks', byKey: { k: { open: { found: false, reason: 'not probed' }, spawn } } });
    const end: JournalEntry = { t: 'run-end', atMs: START + 2000, exitCode: 0, lastSeen: { k: START + 1900 } };
    expect(attributionOf([...lateWriter(START + 300, START + 600), stacks(spawnedBy('spawns')), end])[0]!.spawnedDuring).toBe('spawns');
    // Without the probe's word, the timeline at the child's start: no test ran then.
    expect(attributionOf([...lateWriter(START + 300, START + 600), stacks(spawnedBy(undefined)), end])[0]!.spawnedDuring).toBeNull();
  });

  it('one a poll also met during its test, still held after the exit, outlived the run all the same (the meeting is timing)', () => {
    const [a] = attributionOf([
      { t: 'test', event: { type: 'test-start', name: 'spawns', atMs: START + 150 } },
      { t: 'appeared', atMs: START + 160, scanStartedAtMs: START + 155, key: 'k', holder: writer('/w/late.db', START + 152), member: detached },
      { t: 'test', event: { type: 'test-end', name: 'spawns', outcome: 'passed', atMs: START + 250 } },
      { t: 'command-exit', atMs: START + 300, exitCode: 0 },
      { t: 'run-end', atMs: START + 2000, exitCode: 0, lastSeen: { k: START + 1900 } },
    ]);
    expect(a).toMatchObject({ verdict: 'outlived-run', verdictBy: 'poll', openedDuring: 'spawns' });
  });
});

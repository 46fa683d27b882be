// Verdicts when a test process went on before the scan at its test's end was done: its wait timed out
// (a `went-on` entry, before or after the boundary's), or it sent the end without waiting (`unwaited`).
// What such a scan saw was held at the end; what it did not see may have been let go since.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../contract/journal.js';
import { pytestHolder, replayedRun } from '../../tests/support/recorder-journal.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const TEST_PID = 10;
const CHILD = 11;

const child = (spawnedIn: string) => ({
  ancestry: [CHILD, TEST_PID].map((pid) => ({ pid, name: 'python3', commandLine: 'python3 -m pytest' })),
  byTagOnly: false,
  testHint: { runner: 'pytest' as const, nodeId: spawnedIn, phase: 'call' },
});
const test = (type: 'test-start' | 'test-end', name: string, atMs: number): JournalEntry => ({
  t: 'test',
  event: { type, name, atMs, ...(type === 'test-end' ? { outcome: 'passed' as const } : {}) },
});
const appeared = (atMs: number, spawnedIn = 't1'): JournalEntry => ({
  t: 'appeared',
  atMs,
  scanStartedAtMs: atMs - 2,
  key: 'c',
  holder: pytestHolder(CHILD, '/w/held-0', T0 + 110),
  member: child(spawnedIn),
});
/** The scan at `test`'s end (at `endMs`), run from `scanMs` to `scanMs + 2`. */
const boundary = (test: string, endMs: number, scanMs: number, held: string[], unwaited = false): JournalEntry => ({
  t: 'boundary',
  test,
  atMs: endMs,
  pid: TEST_PID,
  ...(unwaited ? { unwaited: true as const } : {}),
  scanStartedAtMs: scanMs,
  scanEndedAtMs: scanMs + 2,
  held,
});
const wentOn = (test: string, endMs: number, atMs: number): JournalEntry => ({ t: 'went-on', test, atMs: endMs, pid: TEST_PID, wentOnAtMs: atMs });
const gone = (atMs: number): JournalEntry => ({ t: 'gone', atMs, key: 'c', lastSeenAtMs: T0 + 150 });

const attribution = (entries: JournalEntry[]) => replayedRun(T0, entries).record().holders[0]!.attribution;

// t1 forks a child that holds a file; t1 ends at +200 and its process waits until +300 at most; t2
// lets the child go at +350; the scan at t1's end runs at +400, when the child no longer holds.
const lateScan = (order: 'went-on first' | 'boundary first'): JournalEntry[] => {
  const late = boundary('t1', T0 + 200, T0 + 400, []);
  const said = wentOn('t1', T0 + 200, T0 + 300);
  return [
    test('test-start', 't1', T0 + 100),
    appeared(T0 + 150),
    test('test-end', 't1', T0 + 200),
    test('test-start', 't2', T0 + 300),
    gone(T0 + 350),
    ...(order === 'went-on first' ? [said, late] : [late, said]),
    test('test-end', 't2', T0 + 500),
  ];
};

describe('RunRecorder: a scan its process did not wait out', () => {
  it.each(['went-on first', 'boundary first'] as const)(
    'that misses a holding says nothing of it: not known held, never "in-run" by that scan (%s)',
    (order) => {
      expect(attribution(lateScan(order))).toMatchObject({ openedDuring: 't1', verdict: 'in-run', verdictBy: 'boundary-unconfirmed' });
      // The record says which test's end went unconfirmed.
      const tests = replayedRun(T0, lateScan(order)).record().tests;
      expect(tests.map((t) => [t.name, t.endUnconfirmed ?? false])).toEqual([
        ['t1', true],
        ['t2', false],
      ]);
    },
  );

  it('done before its process went on, a scan that misses a holding still says it was let go by then', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      appeared(T0 + 150),
      gone(T0 + 190),
      test('test-end', 't1', T0 + 200),
      boundary('t1', T0 + 200, T0 + 205, []),
      wentOn('t1', T0 + 200, T0 + 300),
      test('test-start', 't2', T0 + 300),
      test('test-end', 't2', T0 + 500),
    ];
    expect(attribution(entries)).toMatchObject({ verdict: 'in-run', verdictBy: 'test-boundary' });
  });

  it('that sees a holding shows it held past the test, however late it ran', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      appeared(T0 + 150),
      test('test-end', 't1', T0 + 200),
      wentOn('t1', T0 + 200, T0 + 300),
      test('test-start', 't2', T0 + 300),
      boundary('t2', T0 + 320, T0 + 330, [], true),
      boundary('t1', T0 + 200, T0 + 400, ['c']),
      gone(T0 + 450),
    ];
    expect(attribution(entries)).toMatchObject({ openedDuring: 't1', verdict: 'leaked-past-test', verdictBy: 'test-boundary' });
  });

  it('a holding first seen after its process went on is of the test its process was spawned in', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 200),
      wentOn('t1', T0 + 200, T0 + 201),
      test('test-start', 't2', T0 + 201),
      // First seen by the poll that ends at +260, in t2's time, then by t1's late scan.
      appeared(T0 + 260),
      boundary('t1', T0 + 200, T0 + 270, ['c']),
      gone(T0 + 450),
      test('test-end', 't2', T0 + 500),
    ];
    expect(attribution(entries)).toMatchObject({ openedDuring: 't1', openedDuringBy: 'process-tree', verdict: 'leaked-past-test', verdictBy: 'test-boundary' });
  });

  it('a holding first seen in the next test, whose end went unwaited too, is still of the test its process was spawned in', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 200),
      wentOn('t1', T0 + 200, T0 + 201),
      test('test-start', 't2', T0 + 201),
      boundary('t1', T0 + 200, T0 + 210, []),
      appeared(T0 + 260),
      test('test-end', 't2', T0 + 300),
      boundary('t2', T0 + 300, T0 + 310, ['c'], true),
      gone(T0 + 450),
    ];
    expect(attribution(entries)).toMatchObject({ openedDuring: 't1', openedDuringBy: 'process-tree' });
  });

  it('an end sent without waiting (`unwaited`) is the same: what its scan missed is not known let go', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      appeared(T0 + 150),
      test('test-end', 't1', T0 + 200),
      boundary('t1', T0 + 200, T0 + 400, [], true),
      gone(T0 + 350),
    ];
    expect(attribution(entries)).toMatchObject({ verdict: 'in-run', verdictBy: 'boundary-unconfirmed' });
  });
});

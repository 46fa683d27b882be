// Verdicts from test-boundary scans: the scan at each test's end, which the test process waited for.
// Runner timestamps are deliberately placed where poll timing would blame the wrong test: the
// boundaries alone must decide.
import { describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import type { JournalEntry } from '../../contract/journal.js';
import { windowsHandleAccess } from '../handle-access.js';
import { RunRecorder } from './run-recorder.js';
import { pytestHolder } from '../../tests/support/recorder-journal.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const TEST_PID = 10;

function holder(pid: number, path: string): Holder {
  return pytestHolder(pid, path, T0 - 1000);
}

const member = (...pids: number[]) => ({ ancestry: pids.map((pid) => ({ pid, name: 'python3', commandLine: 'python3 -m pytest' })), byTagOnly: false });

function record(entries: JournalEntry[]) {
  const r = new RunRecorder();
  r.apply({
    t: 'run-start',
    runId: 'r',
    command: ['pytest'],
    cwd: '/',
    watched: ['/w'],
    platform: 'linux',
    atMs: T0,
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
  });
  for (const e of entries) r.apply(e);
  return r.record();
}

const test = (type: 'test-start' | 'test-end', name: string, atMs: number): JournalEntry => ({
  t: 'test',
  event: { type, name, atMs, ...(type === 'test-end' ? { outcome: 'passed' as const } : {}) },
});
const boundary = (name: string, scanStartedAtMs: number, held: string[], pid = TEST_PID): JournalEntry => ({
  t: 'boundary',
  test: name,
  atMs: scanStartedAtMs - 1,
  pid,
  scanStartedAtMs,
  scanEndedAtMs: scanStartedAtMs + 2,
  held,
});
const appeared = (key: string, h: Holder, scanStartedAtMs: number, m: ReturnType<typeof member> | null = member(TEST_PID)): JournalEntry => ({
  t: 'appeared',
  atMs: scanStartedAtMs + 2,
  scanStartedAtMs,
  key,
  holder: h,
  member: m,
});

describe('RunRecorder with test-boundary scans', () => {
  // Two 1 ms tests. The runner's events arrive stamped late (t1 seems to end after the handle was
  // first seen... by t2's clock): the boundary scans, in holdwatch's own order, still name t1.
  const oneMsTests = (held: string[]): JournalEntry[] => [
    test('test-start', 't1', T0 + 100),
    test('test-end', 't1', T0 + 101),
    appeared('k', holder(TEST_PID, '/w/leak.txt'), T0 + 105),
    boundary('t1', T0 + 105, held),
    test('test-start', 't2', T0 + 110),
    test('test-end', 't2', T0 + 111),
    boundary('t2', T0 + 115, held),
  ];

  it("a handle first seen by a 1 ms test's end scan was opened in it, and held then it leaked past it", () => {
    const [h] = record(oneMsTests(['k'])).holders;
    expect(h!.attribution).toMatchObject({ openedDuring: 't1', openedDuringBy: 'test-boundary', verdict: 'leaked-past-test', verdictBy: 'test-boundary' });
  });

  it('a handle seen during its test but gone by its end scan did not leak', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      appeared('k', holder(TEST_PID, '/w/short.txt'), T0 + 150),
      { t: 'gone', atMs: T0 + 240, key: 'k', lastSeenAtMs: T0 + 150 },
      test('test-end', 't1', T0 + 250),
      boundary('t1', T0 + 260, []),
    ];
    const [h] = record(entries).holders;
    expect(h!.attribution).toMatchObject({ openedDuring: 't1', verdict: 'in-run', verdictBy: 'test-boundary' });
  });

  it("a handle first seen after t1's end scan belongs to t2, the next test, whatever the runner's clock says", () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      test('test-end', 't1', T0 + 300), // stamped late: by the runner's clock the sighting below is in t1
      boundary('t1', T0 + 200, []),
      appeared('k', holder(TEST_PID, '/w/next.txt'), T0 + 210),
      test('test-start', 't2', T0 + 301),
      test('test-end', 't2', T0 + 302),
      boundary('t2', T0 + 220, ['k']),
    ];
    const [h] = record(entries).holders;
    expect(h!.attribution).toMatchObject({ firstSeenDuring: 't1', openedDuring: 't2', verdict: 'leaked-past-test' });
  });

  it("a child of the test process is spoken for by its boundaries; another worker's boundaries do not apply", () => {
    const child = holder(42, '/w/child.txt');
    const other = holder(77, '/w/other-worker.txt');
    const entries: JournalEntry[] = [
      test('test-start', 'w1::a', T0 + 100),
      appeared('child', child, T0 + 150, member(42, TEST_PID)),
      appeared('other', other, T0 + 150, member(77)),
      boundary('w1::a', T0 + 200, ['child', 'other']),
      test('test-end', 'w1::a', T0 + 199),
    ];
    const holders = record(entries).holders;
    expect(holders.find((h) => h.pid === 42)!.attribution).toMatchObject({ openedDuring: 'w1::a', verdict: 'leaked-past-test', verdictBy: 'test-boundary' });
    // Pid 77 ran no boundary: its handle is placed by the runner's timeline, as before boundaries existed.
    expect(holders.find((h) => h.pid === 77)!.attribution).toMatchObject({ openedDuringBy: 'poll', verdictBy: 'poll' });
  });

  it("held at its process's exit stop, a handle placed in a test by its temp dir leaked past it (Go: no boundary, no probe)", () => {
    const entries: JournalEntry[] = [
      test('test-start', 'TestServer', T0 + 100),
      test('test-end', 'TestServer', T0 + 103),
      test('test-start', 'TestOther', T0 + 104),
      test('test-end', 'TestOther', T0 + 105),
      appeared('k', holder(TEST_PID, '/w/TestServer123456/001'), T0 + 106),
      appeared('elsewhere', holder(TEST_PID, '/w/shared.db'), T0 + 106),
      { t: 'exit-stop', atMs: T0 + 106, pid: TEST_PID, scanStartedAtMs: T0 + 106, scanEndedAtMs: T0 + 108, held: ['k', 'elsewhere'] },
    ];
    const [dir, shared] = record(entries).holders;
    expect(dir!.attribution).toMatchObject({
      openedDuring: 'TestServer',
      openedDuringBy: 'test-temp-dir',
      verdict: 'leaked-past-test',
      verdictBy: 'exit-stop',
    });
    // Held at exit too, but nothing says which test opened it: no verdict against a test.
    expect(shared!.attribution).toMatchObject({ openedDuring: null, verdict: 'in-run' });
  });

  it("another process's exit stop says nothing of this one's handles", () => {
    const entries: JournalEntry[] = [
      test('test-start', 'TestServer', T0 + 100),
      test('test-end', 'TestServer', T0 + 200),
      appeared('k', holder(TEST_PID, '/w/TestServer123456/001'), T0 + 150),
      { t: 'exit-stop', atMs: T0 + 250, pid: 11, scanStartedAtMs: T0 + 250, scanEndedAtMs: T0 + 252, held: ['k'] },
    ];
    const [h] = record(entries).holders;
    expect(h!.attribution).toMatchObject({ openedDuring: 'TestServer', verdict: 'in-run' });
  });

  it('a process outside the run is outside-run by the process tree, boundaries or not', () => {
    const [h] = record([test('test-start', 't1', T0), appeared('k', holder(99, '/w/av.tmp'), T0 + 10, null), boundary('t1', T0 + 20, [])]).holders;
    expect(h!.attribution).toMatchObject({ verdict: 'outside-run', verdictBy: 'process-tree' });
  });
});

describe('RunRecorder: one leak, one row', () => {
  it('children holding the same fd of the same file through their parent fold into its row', () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0),
      appeared('parent', holder(10, '/w/log'), T0 + 10, member(10)),
      appeared('child', holder(42, '/w/log'), T0 + 10, member(42, 10)),
      appeared('grandchild', holder(43, '/w/log'), T0 + 10, member(43, 42, 10)),
      appeared('stranger', holder(77, '/w/log'), T0 + 10, member(77)),
      appeared('other-fd', { ...holder(42, '/w/log'), handle: 'fd 9' }, T0 + 10, member(42, 10)),
    ];
    const rows = record(entries).holders.map((h) => ({ pid: h.pid, handle: h.handle, also: h.alsoHeldBy?.map((a) => a.pid) }));
    expect(rows).toEqual([
      { pid: 10, handle: 'fd 5', also: [42, 43] },
      { pid: 77, handle: 'fd 5', also: undefined },
      { pid: 42, handle: 'fd 9', also: undefined },
    ]);
  });

  it('a child seen before the file was unlinked folds into its parent seen after', () => {
    // A bats writer's log, removed by the teardown's rm -rf while held; its 5 ms sleeps inherit the fd.
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0),
      appeared('child', holder(42, '/w/writer.log'), T0 + 10, member(42, 10)),
      appeared('parent', holder(10, '/w/writer.log'), T0 + 10, member(10)),
      appeared('parent', { ...holder(10, '/w/writer.log'), deleted: true }, T0 + 30, member(10)),
    ];
    const rows = record(entries).holders.map((h) => ({ pid: h.pid, deleted: h.deleted, also: h.alsoHeldBy?.map((a) => a.pid) }));
    expect(rows).toEqual([{ pid: 10, deleted: true, also: [42] }]);
  });
});

describe('RunRecorder: one process, one file, one row', () => {
  // Node's rmSync in an after hook stats the share-mode-0 lock file it cannot delete: a second handle
  // of the same process on the same file, FILE_READ_ATTRIBUTES | SYNCHRONIZE only, that a focus scan may catch.
  const lock = (handle: string, grantedAccess: number): Holder => ({
    ...holder(TEST_PID, '/w/cache/cache.lock'),
    handle,
    access: windowsHandleAccess(grantedAccess, 'file'),
  });

  it("a handle that only names the file, beside the process's handle with rights on it, is not a second holder", () => {
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0),
      appeared('lock', lock('0xc4', 0x12019f), T0 + 10),
      test('test-end', 't1', T0 + 300),
      appeared('stat', lock('0xcc', 0x100080), T0 + 400),
      { t: 'gone', atMs: T0 + 500, key: 'stat', lastSeenAtMs: T0 + 400 },
    ];
    expect(record(entries).holders.map((h) => [h.pid, h.handle, h.access?.raw])).toEqual([[TEST_PID, '0xc4', '0x0012019f']]);
  });

  it('alone, or in another process, a handle that only names the file is a holder', () => {
    const entries: JournalEntry[] = [
      appeared('stat', lock('0xcc', 0x100080), T0 + 10),
      appeared('other', { ...lock('0xc4', 0x12019f), pid: 77 }, T0 + 10, member(77, TEST_PID)),
    ];
    expect(record(entries).holders.map((h) => [h.pid, h.handle])).toEqual([
      [TEST_PID, '0xcc'],
      [77, '0xc4'],
    ]);
  });
});

describe('RunRecorder with a test process’s own lists (self-inventory)', () => {
  it('a child forked in a test, holding past its end, leaked past it: its parent’s list speaks only of the parent’s fds', () => {
    const CHILD = 11;
    const entries: JournalEntry[] = [
      test('test-start', 't1', T0 + 100),
      appeared('c', holder(CHILD, '/w/held-0'), T0 + 150),
      // The test process lists its own fds at t1's end: nothing of its own held, the child's fd not among them.
      { t: 'boundary', test: 't1', listed: true, atMs: T0 + 200, pid: TEST_PID, scanStartedAtMs: T0 + 200, scanEndedAtMs: T0 + 200, held: [] },
      test('test-end', 't1', T0 + 200),
      test('test-start', 't2', T0 + 210),
      { t: 'gone', atMs: T0 + 400, key: 'c', lastSeenAtMs: T0 + 350 },
      test('test-end', 't2', T0 + 500),
    ];
    const [h] = record(entries).holders;
    expect(h!.attribution).toMatchObject({ openedDuring: 't1', verdict: 'leaked-past-test', verdictBy: 'poll' });
  });
});

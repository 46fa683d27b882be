import { describe, expect, it } from 'vitest';
import { WINDOWS_STYLE } from '../paths.js';
import { matchOpenStack, matchSpawnStack, NOT_PROBED, parseProbeLog, probeEnvironment, type HolderRef, type ProbeRecord } from './index.js';

const T0 = 1_700_000_000_000;
const frame = (line: number) => [['/src/test_x.py', line, null, 'test_x', true]];
const line = (value: object) => JSON.stringify({ v: 1, ...value });

function log(...lines: object[]): ProbeRecord[] {
  const parsed = parseProbeLog(lines.map((l) => line(l) + '\n').join(''));
  expect(parsed.rejectedLines).toBe(0);
  return parsed.records;
}

const proc = (pid: number, atMs = T0, runtime = 'python') => ({ kind: 'process', runtime, pid, ppid: 1, atMs, argv: ['x'], cwd: '/' });
const open = (pid: number, atMs: number, path: string, lineNo: number, more: object = {}) => ({
  kind: 'open',
  pid,
  atMs,
  api: 'open',
  path,
  fd: null,
  frames: frame(lineNo),
  ...more,
});
const holder = (over: Partial<HolderRef> = {}): HolderRef => ({
  pid: 10,
  processStartedAtMs: T0 - 5,
  kind: 'file',
  path: '/w/a.txt',
  handle: 'fd 7',
  firstSeenAtMs: T0 + 1000,
  ...over,
});

describe('parseProbeLog', () => {
  it('counts bad lines, ignores the NUL tail of a mapped log and an unterminated last line', () => {
    const good = line(proc(10));
    const text = `${good}\n{"v":1,"kind":"open","pid":-3}\nnot json\n${line({ ...proc(10), runtime: 'ruby' })}\n${good}\n{"v":1,"kind":"pro\0\0\0\0`;
    const parsed = parseProbeLog(text);
    expect(parsed.records).toHaveLength(2);
    expect(parsed.rejectedLines).toBe(3);
  });

  it('turns frames into StackFrames', () => {
    const [record] = log(open(10, T0, '/w/a.txt', 7));
    expect(record!.kind === 'open' && record!.frames).toEqual([{ file: '/src/test_x.py', line: 7, column: null, function: 'test_x', user: true }]);
  });
});

describe('matchOpenStack', () => {
  it('takes the latest open of the path before the holder was first seen, normalising the path', () => {
    const records = log(proc(10), open(10, T0 + 1, '/w/a.txt', 1), open(10, T0 + 2, '/w/sub/../a.txt', 2), open(10, T0 + 5000, '/w/a.txt', 3));
    const found = matchOpenStack(holder(), records);
    expect(found).toMatchObject({ found: true, matchedBy: 'path', stack: { frames: [{ line: 2 }] } });
  });

  it("prefers the fd when both sides know it; a record of another fd is never another handle's stack", () => {
    const records = log(proc(10, T0, 'node'), open(10, T0 + 1, '/w/a.txt', 1, { fd: 7, id: 1 }), open(10, T0 + 2, '/w/a.txt', 2, { fd: 8, id: 2 }), {
      kind: 'close',
      pid: 10,
      atMs: T0 + 3,
      id: 2,
      fd: 8,
    });
    expect(matchOpenStack(holder(), records)).toMatchObject({ found: true, matchedBy: 'fd', stack: { fd: 7, frames: [{ line: 1 }] } });
    // fd 8's recorded open was closed: this fd 8 is a later, unrecorded open, not fd 7's (two handles, two opens).
    expect(matchOpenStack(holder({ handle: 'fd 8' }), records)).toMatchObject({ found: false });
  });

  it('an open the code closed while the scan that saw it ran is its stack: the scan read the fd between its start and its end', () => {
    const records = log(proc(10, T0, 'node'), open(10, T0 + 1, '/w/a.txt', 1, { fd: 7, id: 1 }), { kind: 'close', pid: 10, atMs: T0 + 500, id: 1, fd: 7 });
    expect(matchOpenStack(holder({ seenFromMs: T0 + 400 }), records)).toMatchObject({ found: true, matchedBy: 'fd', stack: { frames: [{ line: 1 }] } });
    // A scan begun after the close read another open under that fd.
    expect(matchOpenStack(holder({ seenFromMs: T0 + 600 }), records)).toMatchObject({ found: false });
  });

  it('ignores records of an earlier process with the same pid', () => {
    const records = log(proc(10, T0 - 60_000), open(10, T0 - 59_000, '/w/a.txt', 1));
    expect(matchOpenStack(holder(), records)).toEqual({ found: false, reason: NOT_PROBED });
  });

  it('finds an fd inherited from a probed ancestor, and says why when there is nothing', () => {
    const records = log(proc(10), proc(20), open(20, T0 + 1, '/w/a.txt', 9));
    expect(matchOpenStack(holder({ pid: 30, ancestorPids: [20] }), records)).toMatchObject({ found: true, viaPid: 20, stack: { pid: 20 } });
    expect(matchOpenStack(holder(), records)).toEqual({
      found: false,
      reason: expect.stringMatching(/^no open stack: the python probe in pid 10 recorded no open/),
    });
    expect(matchOpenStack(holder({ kind: 'cwd' }), records)).toMatchObject({ found: false, reason: expect.stringContaining('working directory') });
    expect(matchOpenStack(holder({ kind: 'mmap' }), records)).toMatchObject({ found: false, reason: expect.stringContaining('the map was made') });
    expect(matchOpenStack(holder({ kind: 'exe' }), records)).toMatchObject({ found: false, reason: expect.stringContaining('exe holding is not made') });
  });

  it("pairs a working directory with the process's own chdir into it, while it was still its cwd", () => {
    const chdir = (atMs: number, id: number, path: string) => ({
      kind: 'open',
      pid: 10,
      atMs,
      api: 'process.chdir',
      path,
      fd: null,
      id,
      cwd: true,
      test: 't1',
      frames: [],
    });
    const records = log(proc(10), chdir(T0 + 1, 1, '/w/a'), { kind: 'close', pid: 10, atMs: T0 + 2, id: 1, fd: null }, chdir(T0 + 3, 2, '/w/b'));
    expect(matchOpenStack(holder({ kind: 'cwd', path: '/w/b', handle: null }), records)).toMatchObject({
      found: true,
      stack: { api: 'process.chdir', test: 't1' },
    });
    expect(matchOpenStack(holder({ kind: 'cwd', path: '/w/a', handle: null }), records)).toMatchObject({ found: false });
  });

  it("matches sqlite's side files to the connect and Windows paths without case", () => {
    const records = log(proc(10), { ...open(10, T0 + 1, 'C:\\Work\\db.sqlite', 4), kind: 'connect', api: 'sqlite3.connect' });
    const found = matchOpenStack(holder({ path: 'c:/work/DB.sqlite-wal', handle: '0x1a4' }), records, { style: WINDOWS_STYLE });
    expect(found).toMatchObject({ found: true, stack: { kind: 'connect' } });
  });
});

describe('matchOpenStack with test records (node:test)', () => {
  const testEnd = (atMs: number, name: string, openIds: number[]) => ({ kind: 'test', pid: 10, atMs, event: 'end', name, open: openIds });
  const opened = (atMs: number, id: number, test: string) => open(10, atMs, '/w/a.txt', 4, { fd: 7, id, test });

  it('says whether the open was still open at its test end, even when that end came after the first sighting', () => {
    const held = log(proc(10, T0, 'node'), opened(T0 + 1, 1, 'suite > a'), testEnd(T0 + 2000, 'suite > a', [1]));
    expect(matchOpenStack(holder(), held)).toMatchObject({ found: true, stack: { test: 'suite > a', heldPastTest: true } });
    const closedInTime = log(proc(10, T0, 'node'), opened(T0 + 1, 1, 'suite > a'), testEnd(T0 + 2, 'suite > a', []));
    expect(matchOpenStack(holder(), closedInTime)).toMatchObject({ found: true, stack: { heldPastTest: false } });
  });

  it('an open whose fd came after its test ended (a stream) was held past it', () => {
    const late = log(proc(10, T0, 'node'), testEnd(T0 + 1, 'suite > a', []), opened(T0 + 3, 1, 'suite > a'));
    expect(matchOpenStack(holder(), late)).toMatchObject({ found: true, stack: { test: 'suite > a', heldPastTest: true } });
  });

  it("leaves heldPastTest out when the test's end was never written, or was another test's", () => {
    const noEnd = matchOpenStack(holder(), log(proc(10, T0, 'node'), opened(T0 + 1, 1, 'a'), testEnd(T0 + 3, 'b', [1])));
    expect(noEnd).toMatchObject({ found: true, stack: { test: 'a' } });
    expect(noEnd.found && 'heldPastTest' in noEnd.stack).toBe(false);
  });

  it('an open the same process deleted while it was open names that call (the one Windows refuses)', () => {
    const deleted = (held: number[]) => ({
      kind: 'delete',
      pid: 10,
      atMs: T0 + 5,
      api: 'fs.rmSync',
      path: '/w',
      held,
      cwd: false,
      frames: [['/src/cleanup.js', 12, 3, 'cleanup', true]],
    });
    const found = matchOpenStack(holder(), log(proc(10, T0, 'node'), opened(T0 + 1, 1, 'a'), deleted([1])));
    expect(found).toMatchObject({
      found: true,
      stack: { unlinkedWhileOpen: true, deletedBy: { api: 'fs.rmSync', path: '/w', frames: [{ file: '/src/cleanup.js', line: 12 }] } },
    });
    const other = matchOpenStack(holder(), log(proc(10, T0, 'node'), opened(T0 + 1, 1, 'a'), deleted([2])));
    expect(other.found && 'deletedBy' in other.stack).toBe(false);
  });

  it("a descriptor a delete found in the process's own list is a sighting: the recorded open of its path made it", () => {
    // Python: a path's first open goes without its fd; the os.remove's listing names fd 7 on that file.
    const listed = open(10, T0 + 5, '/w/a.txt', 0, { api: 'native', fd: 7, id: 1, listed: true, frames: [] });
    const deleted = { kind: 'delete', pid: 10, atMs: T0 + 5, api: 'os.remove', path: '/w/a.txt', held: [1], cwd: false, frames: frame(9) };
    const found = matchOpenStack(holder(), log(proc(10), open(10, T0 + 1, '/w/a.txt', 4), listed, deleted));
    expect(found).toMatchObject({
      found: true,
      matchedBy: 'path',
      stack: { api: 'open', frames: [{ line: 4 }], deletedBy: { api: 'os.remove', frames: [{ line: 9 }] } },
    });
    // No recorded open of the path (C code opened it): the sighting is all there is, with the delete.
    const alone = matchOpenStack(holder(), log(proc(10), listed, deleted));
    expect(alone).toMatchObject({ found: true, matchedBy: 'fd', stack: { api: 'native', listed: true, frames: [], deletedBy: { api: 'os.remove' } } });
  });

  it('never reads the test ends of a later process that reused the pid', () => {
    const records = log(proc(10, T0, 'node'), opened(T0 + 1, 1, 'a'), proc(10, T0 + 5000, 'node'), testEnd(T0 + 6000, 'a', [1]));
    const found = matchOpenStack(holder(), records);
    expect(found.found && 'heldPastTest' in found.stack).toBe(false);
  });
});

describe('matchSpawnStack', () => {
  const spawn = (pid: number, atMs: number, childPid: number | null, argv: string[], lineNo: number) => ({
    kind: 'spawn',
    pid,
    atMs,
    api: 'subprocess.Popen',
    executable: argv[0],
    argv,
    cwd: '/',
    childPid,
    frames: frame(lineNo),
  });

  it('by child pid, within the spawn window only', () => {
    const records = log(proc(10), spawn(10, T0 + 10, 40, ['sleep', '9'], 42));
    expect(matchSpawnStack({ pid: 40, ppid: 1, startedAtMs: T0 + 12 }, records)).toMatchObject({
      found: true,
      matchedBy: 'child-pid',
      stack: { childPid: 40, frames: [{ line: 42 }] },
    });
    expect(matchSpawnStack({ pid: 40, ppid: 1, startedAtMs: T0 + 3_600_000 }, records).found).toBe(false);
  });

  it("by the parent's pid-less spawn, picking the one whose argv is the process's command line", () => {
    const records = log(proc(10), spawn(10, T0 + 10, null, ['/bin/sh', '-c', 'a'], 1), spawn(10, T0 + 11, null, ['/bin/sh', '-c', 'b'], 2));
    expect(matchSpawnStack({ pid: 41, ppid: 10, startedAtMs: T0 + 12, commandLine: '/bin/sh -c a' }, records)).toMatchObject({
      found: true,
      matchedBy: 'parent-argv',
      stack: { frames: [{ line: 1 }] },
    });
  });

  it('through a shell between the probed process and the holder', () => {
    const records = log(proc(10), spawn(10, T0 + 10, 50, ['/bin/sh', '-c', 'app &'], 7));
    expect(matchSpawnStack({ pid: 51, ppid: 1, startedAtMs: T0 + 20, ancestorPids: [50] }, records)).toMatchObject({
      found: true,
      viaPid: 50,
      stack: { frames: [{ line: 7 }] },
    });
    expect(matchSpawnStack({ pid: 51, ppid: 1, startedAtMs: T0 + 20 }, records)).toMatchObject({
      found: false,
      reason: expect.stringMatching(/^no spawn stack: no probe saw the call that started it/),
    });
  });
});

describe('probeEnvironment', () => {
  it("appends to the user's PYTHONPATH and NODE_OPTIONS, quoting the preload path", () => {
    const env = probeEnvironment({
      logDir: '/d',
      pythonProbeDir: '/p/python',
      nodePreload: '/p q/preload.cjs',
      env: { PYTHONPATH: '/u', NODE_OPTIONS: '--max-old-space-size=1' },
      pathDelimiter: ':',
    });
    expect(env).toEqual({
      HOLDWATCH_PROBE_LOG: '/d',
      PYTHONPATH: '/p/python:/u',
      NODE_OPTIONS: '--max-old-space-size=1 --require "/p q/preload.cjs"',
      HOLDWATCH_GC_WATCH: '1',
    });
    expect(probeEnvironment({ logDir: '/d', pythonProbeDir: '/p', nodePreload: '/n.cjs', env: {}, pathDelimiter: ';' })).toMatchObject({
      PYTHONPATH: '/p',
      NODE_OPTIONS: '--require "/n.cjs"',
    });
  });

  it('turns the finalizer watch on, unless the user set HOLDWATCH_GC_WATCH (0: off)', () => {
    const input = { logDir: '/d', pythonProbeDir: '/p', nodePreload: '/n.cjs', pathDelimiter: ':' };
    expect(probeEnvironment({ ...input, env: {} }).HOLDWATCH_GC_WATCH).toBe('1');
    expect(probeEnvironment({ ...input, env: { HOLDWATCH_GC_WATCH: '0' } })).not.toHaveProperty('HOLDWATCH_GC_WATCH');
  });
});

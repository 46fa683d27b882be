import { describe, expect, it } from 'vitest';
import { findProbeLeaks, indexProbeRecords, parseProbeLog, type ProbeLeakQuery, type ProbeRecord } from './index.js';

const T0 = 1_700_000_000_000;

function log(...lines: object[]): ProbeRecord[] {
  const parsed = parseProbeLog(lines.map((l) => JSON.stringify({ v: 1, ...l }) + '\n').join(''));
  expect(parsed.rejectedLines).toBe(0);
  return parsed.records;
}

const proc = (pid: number, atMs: number) => ({ kind: 'process', runtime: 'node', pid, ppid: 1, atMs, argv: ['/usr/bin/node', '/src/a.test.mjs'], cwd: '/src' });
const open = (pid: number, atMs: number, id: number, path: string, test?: string) => ({
  kind: 'open',
  pid,
  atMs,
  api: 'fs.openSync',
  path,
  fd: 20 + id,
  id,
  ...(test === undefined ? {} : { test }),
  frames: [['/src/a.test.mjs', id, 3, null, true]],
});
const end = (pid: number, atMs: number, name: string, ids: number[]) => ({ kind: 'test', pid, atMs, event: 'end', name, open: ids });
const exit = (pid: number, atMs: number, ids: number[]) => ({ kind: 'exit', pid, atMs, open: ids });

const under =
  (dir: string): ProbeLeakQuery['watchedDirOf'] =>
  (path) =>
    path.startsWith(`${dir}/`) ? dir : null;
const query = (over: Partial<ProbeLeakQuery> = {}): ProbeLeakQuery => ({ watchedDirOf: under('/w'), seen: () => false, ...over });

describe('findProbeLeaks', () => {
  it("finds the opens a test's end listed as still open, under a watched dir, dated to the exit when still open then", () => {
    const records = log(
      proc(10, T0),
      open(10, T0 + 1, 1, '/w/a.txt', 'suite > leaks'),
      open(10, T0 + 2, 2, '/w/b.txt', 'suite > leaks'),
      open(10, T0 + 3, 3, '/elsewhere/c.txt', 'suite > leaks'),
      end(10, T0 + 4, 'suite > leaks', [1, 2, 3]),
      exit(10, T0 + 9, [1]),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query());
    expect(leaks.map((l) => [l.open.path, l.testEndedAtMs - T0, l.heldUntilMs - T0, l.watchedDir])).toEqual([
      ['/w/a.txt', 4, 9, '/w'],
      ['/w/b.txt', 4, 4, '/w'],
    ]);
    expect(leaks[0]!.stack).toMatchObject({ test: 'suite > leaks', heldPastTest: true, frames: [{ line: 1 }] });
  });

  it("reads a worker thread's log beside its process's: its start is not a new process, its exit ends only its own opens", () => {
    const thread = 2 ** 32; // thread 1's ids (THREAD_ID_SPAN)
    const records = log(
      proc(10, T0),
      open(10, T0 + 1, 1, '/w/main.txt', 'main > leaks'),
      { ...proc(10, T0 + 2), argv: ['/usr/bin/node'], thread: 1 },
      open(10, T0 + 3, thread + 1, '/w/thread.txt', 'thread > leaks'),
      { ...exit(10, T0 + 4, [thread + 1]), thread: 1 },
      end(10, T0 + 5, 'main > leaks', [1]),
      { ...open(10, T0 + 6, 2, '/w/file-scope.txt'), scope: { kind: 'file', name: 'a.test.mjs' } },
      exit(10, T0 + 9, [2]),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query());
    expect(leaks.map((l) => [l.open.path, l.testEndedAtMs - T0, l.heldUntilMs - T0])).toEqual([
      ['/w/main.txt', 5, 5],
      ['/w/file-scope.txt', 9, 9], // open at the process's exit, not at its thread's
    ]);
  });

  it('reports an open a delete met, though no tracker named its test (a plain script, a runner not followed)', () => {
    const records = log(
      proc(10, T0),
      open(10, T0 + 1, 1, '/w/db.sqlite'),
      { kind: 'delete', pid: 10, atMs: T0 + 5, api: 'fs.rmSync', path: '/w', held: [1], cwd: false, frames: [['/src/a.test.mjs', 9, 3, null, true]] },
      exit(10, T0 + 9, [1]),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query());
    expect(leaks.map((l) => [l.open.path, l.stack.test, l.stack.deletedBy?.api, l.heldUntilMs - T0])).toEqual([['/w/db.sqlite', undefined, 'fs.rmSync', 9]]);
  });

  it("counts a stream whose fd came only after its test ended (the call was the test's), up to its close", () => {
    const records = log(
      proc(10, T0),
      end(10, T0 + 5, 't1', []),
      open(10, T0 + 7, 1, '/w/late.txt', 't1'),
      { kind: 'close', pid: 10, atMs: T0 + 30, id: 1, fd: 21 },
      exit(10, T0 + 40, []),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query());
    expect(leaks.map((l) => [l.open.path, l.testEndedAtMs - T0, l.heldUntilMs - T0])).toEqual([['/w/late.txt', 5, 30]]);
  });

  it('leaves out what a scan saw, what no test made, and an id listed by another test or another process', () => {
    const records = log(
      proc(10, T0),
      open(10, T0 + 1, 1, '/w/seen.txt', 't1'),
      open(10, T0 + 2, 2, '/w/outside-any-test.txt'),
      open(10, T0 + 3, 3, '/w/other-test.txt', 't1'),
      end(10, T0 + 4, 't2', [3]),
      end(10, T0 + 5, 't1', [1, 2]),
      proc(10, T0 + 100), // the pid reused: its tests do not speak for the first process's opens
      end(10, T0 + 101, 't1', [3]),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query({ seen: (stack) => stack.path === '/w/seen.txt' }));
    expect(leaks).toEqual([]);
  });

  it("finds a wider scope's open still open at that scope's end, or at the exit when no end was written, and not one its after hooks closed", () => {
    const scoped = (atMs: number, id: number, path: string, scope: object) => ({ ...open(10, atMs, id, path), scope, listed: true, frames: [] });
    const suite = { kind: 'suite', name: 'store' };
    const file = { kind: 'file', name: 'a.test.mjs' };
    const records = log(
      proc(10, T0),
      scoped(T0 + 1, 1, '/w/kept.db', suite),
      scoped(T0 + 2, 2, '/w/closed.db', suite),
      scoped(T0 + 3, 3, '/w/module.db', file),
      { kind: 'test', pid: 10, atMs: T0 + 5, event: 'end', name: 'store', scope: 'suite', open: [1] },
      exit(10, T0 + 9, [1, 3]),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query());
    expect(leaks.map((l) => [l.open.path, l.testEndedAtMs - T0, l.heldUntilMs - T0, l.stack.scope?.name, l.stack.listed])).toEqual([
      ['/w/kept.db', 5, 9, 'store', true],
      ['/w/module.db', 9, 9, 'a.test.mjs', true],
    ]);
  });

  it('finds an open the process deleted while it held it, even one closed before its scope ended', () => {
    const chdir = {
      kind: 'open',
      pid: 10,
      atMs: T0 + 1,
      api: 'process.chdir',
      path: '/w/build',
      fd: null,
      id: 1,
      cwd: true,
      scope: { kind: 'file', name: 'a.test.mjs' },
      frames: [],
    };
    const records = log(
      proc(10, T0),
      chdir,
      { kind: 'delete', pid: 10, atMs: T0 + 5, api: 'fs.rm', path: '/w/build', held: [1], cwd: true, frames: [] },
      { kind: 'close', pid: 10, atMs: T0 + 6, id: 1, fd: null },
      exit(10, T0 + 9, []),
    );
    const leaks = findProbeLeaks(indexProbeRecords(records), query());
    expect(leaks.map((l) => [l.open.path, l.testEndedAtMs - T0, l.heldUntilMs - T0, l.stack.deletedBy?.api])).toEqual([['/w/build', 5, 6, 'fs.rm']]);
  });
});

import { describe, expect, it } from 'vitest';
import { deletedUnderChild, findUnseenChildHolds, indexProbeRecords, parseProbeLog, type HolderRef, type ProbeRecord } from './index.js';

const T0 = 1_700_000_000_000;
const PARENT = 100;
const CHILD = 200;

function log(...lines: object[]): ProbeRecord[] {
  const parsed = parseProbeLog(lines.map((l) => JSON.stringify({ v: 1, ...l }) + '\n').join(''));
  expect(parsed.rejectedLines).toBe(0);
  return parsed.records;
}

const parent = { kind: 'process', runtime: 'node', pid: PARENT, ppid: 1, atMs: T0, argv: ['node', 't.mjs'], cwd: '/' };
const spawn = {
  kind: 'spawn',
  pid: PARENT,
  atMs: T0 + 10,
  api: 'child_process.spawn',
  executable: 'node',
  argv: ['node', 'srv.js'],
  cwd: '/w/proj',
  childPid: CHILD,
  frames: [['/t.mjs', 5, 1, null, true]],
};
const removal = (children: object[], atMs = T0 + 500) => ({
  kind: 'delete',
  pid: PARENT,
  atMs,
  api: 'fs.rmSync',
  path: '/w',
  held: [],
  cwd: false,
  children,
  frames: [['/t.mjs', 9, 3, null, true]],
});
/** The child's working directory and a file it keeps open, both under the removed folder. */
const BOTH = [
  { pid: CHILD, fd: null, path: '/w/proj' },
  { pid: CHILD, fd: 21, path: '/w/proj/log.txt' },
];
const cwdHolder = (over: Partial<HolderRef> = {}): HolderRef => ({
  pid: CHILD,
  processStartedAtMs: T0 + 12,
  kind: 'cwd',
  path: '/w/proj',
  handle: null,
  firstSeenAtMs: T0 + 100,
  ancestorPids: [PARENT, 1],
  ...over,
});

describe('deletedUnderChild', () => {
  it("names the parent's delete that met the child's working directory or fd, with the parent's pid", () => {
    const records = log(parent, spawn, removal(BOTH));
    expect(deletedUnderChild(cwdHolder(), records)).toEqual({
      api: 'fs.rmSync',
      atMs: T0 + 500,
      path: '/w',
      frames: [{ file: '/t.mjs', line: 9, column: 3, function: null, user: true }],
      pid: PARENT,
    });
    expect(deletedUnderChild(cwdHolder({ kind: 'file', path: '/w/proj/log.txt', handle: 'fd 21' }), records)?.pid).toBe(PARENT);
  });

  it('names nothing for another fd, another path, another process or an earlier life of the pid', () => {
    const records = log(parent, spawn, removal([{ pid: CHILD, fd: 21, path: '/w/proj/log.txt' }]));
    expect(deletedUnderChild(cwdHolder({ kind: 'file', path: '/w/proj/log.txt', handle: 'fd 22' }), records)).toBeUndefined();
    expect(deletedUnderChild(cwdHolder({ kind: 'file', path: '/w/proj/other.txt', handle: 'fd 21' }), records)).toBeUndefined();
    expect(deletedUnderChild(cwdHolder({ kind: 'file', path: '/w/proj/log.txt', handle: 'fd 21', pid: 201 }), records)).toBeUndefined();
    expect(deletedUnderChild(cwdHolder({ kind: 'file', path: '/w/proj/log.txt', handle: 'fd 21', ancestorPids: [1] }), records)).toBeUndefined();
    // A process that started after the delete reuses the pid: the delete met the one before.
    const later = cwdHolder({ kind: 'file', path: '/w/proj/log.txt', handle: 'fd 21', processStartedAtMs: T0 + 60_000 });
    expect(deletedUnderChild(later, records)).toBeUndefined();
  });
});

describe('findUnseenChildHolds', () => {
  const query = (seen: string[] = []) => ({
    watchedDirOf: (p: string) => (p.startsWith('/w/') ? '/w' : null),
    seen: (pid: number, path: string, handle: string | null) => seen.includes(`${pid} ${path} ${handle}`),
  });

  it('makes a holder of each holding no scan saw, started at its spawn, seen last at the delete', () => {
    const records = log(parent, spawn, removal(BOTH));
    const holds = findUnseenChildHolds(indexProbeRecords(records), query([`${CHILD} /w/proj/log.txt fd 21`]));
    expect(holds.map((h) => ({ ref: h.ref, ppid: h.ppid, argv: h.argv, watchedDir: h.watchedDir, at: h.call.atMs }))).toEqual([
      {
        ref: { pid: CHILD, processStartedAtMs: T0 + 10, kind: 'cwd', path: '/w/proj', handle: null, firstSeenAtMs: T0 + 500, ancestorPids: [PARENT] },
        ppid: PARENT,
        argv: ['node', 'srv.js'],
        watchedDir: '/w',
        at: T0 + 500,
      },
    ]);
  });

  it('takes the first delete of a holding, and leaves out what lies under no watched dir', () => {
    const records = log(
      parent,
      spawn,
      removal([{ pid: CHILD, fd: null, path: '/w/proj' }]),
      removal(
        [
          { pid: CHILD, fd: null, path: '/w/proj' },
          { pid: CHILD, fd: 3, path: '/elsewhere/x' },
        ],
        T0 + 900,
      ),
    );
    const holds = findUnseenChildHolds(indexProbeRecords(records), query());
    expect(holds.map((h) => [h.ref.path, h.call.atMs])).toEqual([['/w/proj', T0 + 500]]);
  });
});

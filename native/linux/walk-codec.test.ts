import { describe, expect, it } from 'vitest';
import type { MatchDir, WalkResult } from './fd-walk.js';
import { packWalk, unpackWalk } from './walk-codec.js';

describe('packWalk / unpackWalk', () => {
  it('round-trips every field of every holding, across two watched dirs', () => {
    const dirs: MatchDir[] = [
      { matchPrefix: '/w/a', display: '/w/a' },
      { matchPrefix: '/w/b', display: '/w/b' },
    ];
    const result: WalkResult = {
      holdings: [
        { pid: 10, kind: 'file', path: '/w/a/x.txt', deleted: false, handle: 'fd 3', watchedDir: '/w/a', openFlags: 0o2100001 },
        { pid: 10, kind: 'dir', path: '/w/b', deleted: false, handle: 'fd 12', watchedDir: '/w/b', openFlags: 0o2200000 },
        { pid: 11, kind: 'mmap', path: '/w/b/lib.so', deleted: true, handle: null, watchedDir: '/w/b', openFlags: null },
        { pid: 11, kind: 'cwd', path: '/w/a/with space (deleted)', deleted: false, handle: null, watchedDir: '/w/a', openFlags: null },
      ],
      infos: [
        [10, { pid: 10, ppid: 1, startedAtMs: 1_700_000_000_000, name: 'python3', exe: '/usr/bin/python3.11', commandLine: 'python3 x.py', user: 'root' }],
        [11, null],
      ],
      denied: [{ pid: 12, reason: 'EACCES reading /proc/12/fd' }],
      processCount: 3,
      handleCount: 40,
    };
    const packed = packWalk(result, dirs);
    expect(unpackWalk(structuredClone(packed), dirs)).toEqual(result);
  });
});

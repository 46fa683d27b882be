import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../contract/holders.js';
import type { MatchDir, PidHoldings, WalkResult } from './fd-walk.js';
import { packWalk, ReceivedFdRows, unpackWalk, WalkThreadDisagreement } from './walk-codec.js';

const dirs: MatchDir[] = [
  { matchPrefix: '/w/a', display: '/w/a' },
  { matchPrefix: '/w/b', display: '/w/b' },
];
const info = (pid: number): ProcessInfo => ({
  pid,
  ppid: 1,
  startedAtMs: 1_700_000_000_000,
  name: 'python3',
  exe: '/usr/bin/python3.11',
  commandLine: 'python3 x.py',
  user: 'root',
});

const walked = (groups: PidHoldings[]): WalkResult => ({
  groups,
  denied: [{ pid: 12, reason: 'EACCES reading /proc/12/fd' }],
  processCount: 3,
  handleCount: 40,
});

const group10 = (): PidHoldings => ({
  pid: 10,
  fdRows: [
    { pid: 10, kind: 'file', path: '/w/a/x.txt', deleted: false, handle: 'fd 3', watchedDir: '/w/a', openFlags: 0o2100001 },
    { pid: 10, kind: 'dir', path: '/w/b', deleted: false, handle: 'fd 12', watchedDir: '/w/b', openFlags: 0o2200000 },
  ],
  fdRowsOfWalk: null,
  otherRows: [],
  info: info(10),
  stackStart: 140733012622432,
});
const group11 = (): PidHoldings => ({
  pid: 11,
  fdRows: [],
  fdRowsOfWalk: null,
  otherRows: [
    { pid: 11, kind: 'mmap', path: '/w/b/lib.so', deleted: true, handle: null, watchedDir: '/w/b', openFlags: null },
    { pid: 11, kind: 'cwd', path: '/w/a/with space (deleted)', deleted: false, handle: null, watchedDir: '/w/a', openFlags: null },
  ],
  info: info(11),
  stackStart: 140722618673184,
});

describe('packWalk / unpackWalk', () => {
  it('round-trips every field of every holding, across two watched dirs', () => {
    const result = walked([group10(), group11()]);
    expect(unpackWalk(structuredClone(packWalk(result, dirs)), dirs, new ReceivedFdRows(), 1)).toEqual(result);
  });

  it("a group naming an earlier walk's fd rows sends none of them, and gets back the very rows received then", () => {
    const received = new ReceivedFdRows();
    const first = unpackWalk(structuredClone(packWalk(walked([group10(), group11()]), dirs)), dirs, received, 1);
    const again = walked([{ ...group10(), fdRowsOfWalk: 1 }, group11()]);
    const packed = structuredClone(packWalk(again, dirs));
    expect(packed.rows.paths).toEqual(['/w/b/lib.so', '/w/a/with space (deleted)']); // pid 11's rows only
    const second = unpackWalk(packed, dirs, received, 2);
    expect(second.groups[0]!.fdRows).toBe(first.groups[0]!.fdRows);
    expect(second.groups[1]!.otherRows).toEqual(first.groups[1]!.otherRows);
  });

  it('rows this side does not have, or has from another walk, are a disagreement, never a guess', () => {
    const received = new ReceivedFdRows();
    const naming = (walk: number) => structuredClone(packWalk(walked([{ ...group10(), fdRowsOfWalk: walk }]), dirs));
    expect(() => unpackWalk(naming(1), dirs, received, 2)).toThrow(WalkThreadDisagreement);
    unpackWalk(structuredClone(packWalk(walked([group10()]), dirs)), dirs, received, 3);
    expect(() => unpackWalk(naming(1), dirs, received, 4)).toThrow(WalkThreadDisagreement);
    expect(unpackWalk(naming(3), dirs, received, 4).groups[0]!.fdRows).toHaveLength(2);
    received.retainOnly([]);
    expect(() => unpackWalk(naming(3), dirs, received, 5)).toThrow(WalkThreadDisagreement);
  });
});

// A worker's WalkResult crosses to the calling thread packed in columns: structured clone of
// thousands of small objects cost ~10x more than of a few typed arrays and one string array, and
// that copy is paid on the calling thread, the one that has no spare time.
import { HOLDER_KINDS } from '../../contract/enums.js';
import type { MatchDir, RawHolding, WalkResult } from './fd-walk.js';

export interface PackedWalk {
  pids: Int32Array;
  /** Index into HOLDER_KINDS. */
  kinds: Uint8Array;
  deleted: Uint8Array;
  /** The fd number for `fd N` handles, -1 for null. */
  fds: Int32Array;
  /** Index into the request's dirs. */
  dirs: Uint16Array;
  /** Open flags, -1 for null. */
  flags: Int32Array;
  paths: string[];
  infos: WalkResult['infos'];
  denied: WalkResult['denied'];
  processCount: number;
  handleCount: number;
}

const FD_HANDLE = /^fd (\d+)$/;

export function packWalk(result: WalkResult, dirs: readonly MatchDir[]): PackedWalk {
  const n = result.holdings.length;
  const packed: PackedWalk = {
    pids: new Int32Array(n),
    kinds: new Uint8Array(n),
    deleted: new Uint8Array(n),
    fds: new Int32Array(n),
    dirs: new Uint16Array(n),
    flags: new Int32Array(n),
    paths: new Array<string>(n),
    infos: result.infos,
    denied: result.denied,
    processCount: result.processCount,
    handleCount: result.handleCount,
  };
  const dirIndex = new Map(dirs.map((d, i) => [d.display, i]));
  result.holdings.forEach((h, i) => {
    packed.pids[i] = h.pid;
    packed.kinds[i] = HOLDER_KINDS.indexOf(h.kind);
    packed.deleted[i] = h.deleted ? 1 : 0;
    packed.fds[i] = h.handle === null ? -1 : Number(FD_HANDLE.exec(h.handle)![1]);
    packed.dirs[i] = dirIndex.get(h.watchedDir)!;
    packed.flags[i] = h.openFlags ?? -1;
    packed.paths[i] = h.path;
  });
  return packed;
}

export function unpackWalk(packed: PackedWalk, dirs: readonly MatchDir[]): WalkResult {
  const holdings = new Array<RawHolding>(packed.paths.length);
  for (let i = 0; i < holdings.length; i++) {
    const fd = packed.fds[i]!;
    const flags = packed.flags[i]!;
    holdings[i] = {
      pid: packed.pids[i]!,
      kind: HOLDER_KINDS[packed.kinds[i]!]!,
      path: packed.paths[i]!,
      deleted: packed.deleted[i] === 1,
      handle: fd < 0 ? null : `fd ${fd}`,
      watchedDir: dirs[packed.dirs[i]!]!.display,
      openFlags: flags < 0 ? null : flags,
    };
  }
  return { holdings, infos: packed.infos, denied: packed.denied, processCount: packed.processCount, handleCount: packed.handleCount };
}

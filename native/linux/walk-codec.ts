// The walk thread's WalkResult crosses to the calling thread packed in columns: structured clone of
// thousands of small objects cost ~10x more than of a few typed arrays and one string array, and
// that copy is paid on the calling thread, the one that has no spare time. A process whose fd rows
// the walk thread remembered unchanged (fd-row-memo.ts) crosses as a reference to the walk that sent
// them, and the calling thread gives back the rows it unpacked then (ReceivedFdRows): a steady poll
// sends a few numbers per process instead of every row.
import type { ProcessInfo } from '../../contract/holders.js';
import { HOLDER_KINDS } from '../../contract/enums.js';
import type { MatchDir, PidHoldings, RawHolding, WalkResult } from './fd-walk.js';

export interface PackedWalk {
  /** Per process, in walk order. */
  groups: {
    pids: Int32Array;
    /** How many of the rows below are its fd rows; -1 when they are those sent by walk `fdRowsOfWalk`. */
    fdRows: Int32Array;
    fdRowsOfWalk: Int32Array;
    otherRows: Int32Array;
    infos: ProcessInfo[];
    stackStarts: Float64Array;
  };
  rows: {
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
    /** [row, bytes] for the rare paths that are not UTF-8 (RawHolding.pathBytesBase64). */
    pathBytes: [number, string][];
  };
  denied: WalkResult['denied'];
  processCount: number;
  handleCount: number;
}

const FD_HANDLE = /^fd (\d+)$/;

/** A group whose fd rows were an earlier walk's names that walk; the others send their rows. */
export function packWalk(result: WalkResult, dirs: readonly MatchDir[]): PackedWalk {
  const { groups } = result;
  const sent = groups.flatMap((g) => (g.fdRowsOfWalk === null ? [...g.fdRows, ...g.otherRows] : g.otherRows));
  const packed: PackedWalk = {
    groups: {
      pids: Int32Array.from(groups, (g) => g.pid),
      fdRows: Int32Array.from(groups, (g) => (g.fdRowsOfWalk === null ? g.fdRows.length : -1)),
      fdRowsOfWalk: Int32Array.from(groups, (g) => g.fdRowsOfWalk ?? -1),
      otherRows: Int32Array.from(groups, (g) => g.otherRows.length),
      infos: groups.map((g) => g.info),
      stackStarts: Float64Array.from(groups, (g) => g.stackStart),
    },
    rows: {
      kinds: new Uint8Array(sent.length),
      deleted: new Uint8Array(sent.length),
      fds: new Int32Array(sent.length),
      dirs: new Uint16Array(sent.length),
      flags: new Int32Array(sent.length),
      paths: new Array<string>(sent.length),
      pathBytes: [],
    },
    denied: result.denied,
    processCount: result.processCount,
    handleCount: result.handleCount,
  };
  const dirIndex = new Map(dirs.map((d, i) => [d.display, i]));
  const { rows } = packed;
  sent.forEach((h, i) => {
    rows.kinds[i] = HOLDER_KINDS.indexOf(h.kind);
    rows.deleted[i] = h.deleted ? 1 : 0;
    rows.fds[i] = h.handle === null ? -1 : Number(FD_HANDLE.exec(h.handle)![1]);
    rows.dirs[i] = dirIndex.get(h.watchedDir)!;
    rows.flags[i] = h.openFlags ?? -1;
    rows.paths[i] = h.path;
    if (h.pathBytesBase64 !== undefined) rows.pathBytes.push([i, h.pathBytesBase64]);
  });
  return packed;
}

/** The receiving side of the walk thread's fd rows: what each process's rows were when last sent. */
export class ReceivedFdRows {
  private byPid = new Map<number, { rows: readonly RawHolding[]; walkId: number }>();

  /** A process's rows as sent by walk `walkId`; null when this side does not have them (the two sides disagree). */
  rowsOf(pid: number, walkId: number): readonly RawHolding[] | null {
    const received = this.byPid.get(pid);
    return received?.walkId === walkId ? received.rows : null;
  }

  receive(pid: number, rows: readonly RawHolding[], walkId: number): void {
    this.byPid.set(pid, { rows, walkId });
  }

  /** After a walk of the whole system: the walk thread remembers these processes only. */
  retainOnly(pids: Iterable<number>): void {
    const kept = new Set(pids);
    for (const pid of this.byPid.keys()) if (!kept.has(pid)) this.byPid.delete(pid);
  }

  clear(): void {
    this.byPid.clear();
  }
}

export class WalkThreadDisagreement extends Error {}

/**
 * `walkId`: the walk this answers (its new fd rows are remembered under it). Throws
 * WalkThreadDisagreement when a group names rows this side does not have.
 */
export function unpackWalk(packed: PackedWalk, dirs: readonly MatchDir[], received: ReceivedFdRows, walkId: number): WalkResult {
  const { rows } = packed;
  const pathBytes = new Map(rows.pathBytes);
  let next = 0;
  const readRows = (count: number, pid: number): RawHolding[] => {
    const out = new Array<RawHolding>(count);
    for (let i = 0; i < count; i++, next++) {
      const fd = rows.fds[next]!;
      const flags = rows.flags[next]!;
      out[i] = {
        pid,
        kind: HOLDER_KINDS[rows.kinds[next]!]!,
        path: rows.paths[next]!,
        ...(pathBytes.has(next) ? { pathBytesBase64: pathBytes.get(next)! } : {}),
        deleted: rows.deleted[next] === 1,
        handle: fd < 0 ? null : `fd ${fd}`,
        watchedDir: dirs[rows.dirs[next]!]!.display,
        openFlags: flags < 0 ? null : flags,
      };
    }
    return out;
  };
  const g = packed.groups;
  const groups: PidHoldings[] = new Array<PidHoldings>(g.pids.length);
  for (let i = 0; i < groups.length; i++) {
    const pid = g.pids[i]!;
    const ofWalk = g.fdRowsOfWalk[i]!;
    let fdRows: readonly RawHolding[];
    if (g.fdRows[i]! < 0) {
      const kept = received.rowsOf(pid, ofWalk);
      if (kept === null) throw new WalkThreadDisagreement(`the walk thread named fd rows of pid ${pid} from walk ${ofWalk}, which this thread does not have`);
      fdRows = kept;
    } else {
      fdRows = readRows(g.fdRows[i]!, pid);
      received.receive(pid, fdRows, walkId);
    }
    groups[i] = {
      pid,
      fdRows,
      fdRowsOfWalk: ofWalk < 0 ? null : ofWalk,
      otherRows: readRows(g.otherRows[i]!, pid),
      info: g.infos[i]!,
      stackStart: g.stackStarts[i]!,
    };
  }
  return { groups, denied: packed.denied, processCount: packed.processCount, handleCount: packed.handleCount };
}

// Gives back last poll's Holder objects for rows that did not change. A steady-state poll then hands
// the watcher the same objects, whose identity keys are already computed and hashed (core/watch.ts
// caches them per object), instead of 8,000 fresh strings to build and hash every poll. A process
// whose fd rows are the walk's remembered array (fd-row-memo.ts) and whose facts are unchanged costs
// one comparison per row.
import type { HandleAccess, Holder, ProcessInfo } from '../../contract/holders.js';
import { linuxHandleAccess } from '../../core/handle-access.js';
import type { PidHoldings, RawHolding } from './fd-walk.js';

interface Built {
  info: ProcessInfo;
  stackStart: number;
  rows: readonly RawHolding[];
  holders: Holder[];
}

export class HolderReuse {
  private lastByPid = new Map<number, Built>();

  /** `scannedPids` null when the whole system was walked. */
  build(groups: readonly PidHoldings[], scannedPids: readonly number[] | null): Holder[] {
    const byPid = scannedPids === null ? new Map<number, Built>() : new Map(this.lastByPid);
    if (scannedPids) for (const pid of scannedPids) byPid.delete(pid);
    const holders: Holder[] = [];
    for (const group of groups) {
      const built = this.buildOne(group);
      byPid.set(group.pid, built);
      for (const holder of built.holders) holders.push(holder);
    }
    this.lastByPid = byPid;
    return holders;
  }

  private buildOne({ pid, fdRows, otherRows, info: read, stackStart }: PidHoldings): Built {
    const rows = otherRows.length === 0 ? fdRows : [...fdRows, ...otherRows];
    const last = this.lastByPid.get(pid);
    const known = last && last.info.startedAtMs === read.startedAtMs ? last : undefined;
    const info = known ? programOf(known, read, stackStart) : read;
    const same = last !== undefined && sameFacts(last.info, info) ? last : undefined;
    if (same && rows === same.rows) return same;
    const holders: Holder[] = new Array<Holder>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const raw = rows[i]!;
      const old = same?.holders[i];
      holders[i] = old && (same.rows[i] === raw || sameRow(old, raw)) ? old : toHolder(raw, info);
    }
    return { info, rows, holders, stackStart: known && stackStart === 0 ? known.stackStart : stackStart };
  }
}

/**
 * What a process known from the last poll runs: what it was read as then, until it execs (a new
 * stack or a new name). A process rewriting its own title (postgres per query) would otherwise
 * change all its rows each poll. One in exit has released its memory (exit_mm) before its files
 * (exit_files): no stack, no argv, no exe link, which reads as a kernel thread's `[comm]`; it did
 * not become another program either. Its parent and user are taken as read.
 */
function programOf(last: Built, read: ProcessInfo, stackStart: number): ProcessInfo {
  const execd = stackStart !== 0 && (stackStart !== last.stackStart || read.name !== last.info.name);
  if (execd) return read;
  const { name, exe, commandLine } = last.info;
  return read.name === name && read.exe === exe && read.commandLine === commandLine ? read : { ...read, name, exe, commandLine };
}

function sameFacts(a: ProcessInfo, b: ProcessInfo): boolean {
  return a.startedAtMs === b.startedAtMs && a.ppid === b.ppid && a.commandLine === b.commandLine && a.name === b.name && a.user === b.user;
}

function sameRow(old: Holder, raw: RawHolding): boolean {
  return (
    old.path === raw.path &&
    old.pathBytesBase64 === raw.pathBytesBase64 &&
    old.handle === raw.handle &&
    old.kind === raw.kind &&
    old.deleted === raw.deleted &&
    old.watchedDir === raw.watchedDir &&
    old.access === accessOf(raw)
  );
}

/** Shared objects per flags value (linuxHandleAccess memoises), so an unchanged row compares by identity. */
function accessOf(raw: RawHolding): HandleAccess | undefined {
  return raw.openFlags === null ? undefined : linuxHandleAccess(raw.openFlags, process.arch);
}

function toHolder(raw: RawHolding, info: ProcessInfo): Holder {
  const access = accessOf(raw);
  return {
    pid: raw.pid,
    ppid: info.ppid,
    processStartedAtMs: info.startedAtMs,
    processName: info.name,
    commandLine: info.commandLine,
    user: info.user,
    kind: raw.kind,
    path: raw.path,
    ...(raw.pathBytesBase64 !== undefined ? { pathBytesBase64: raw.pathBytesBase64 } : {}),
    deleted: raw.deleted,
    handle: raw.handle,
    watchedDir: raw.watchedDir,
    ...(access ? { access } : {}),
  };
}

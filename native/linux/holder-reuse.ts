// Gives back last poll's Holder objects for rows that did not change. A steady-state poll then hands
// the watcher the same objects, whose identity keys are already computed and hashed (core/watch.ts
// caches them per object), instead of 8,000 fresh strings to build and hash every poll.
import type { HandleAccess, Holder, ProcessInfo } from '../../contract/holders.js';
import { linuxHandleAccess } from '../../core/handle-access.js';
import type { RawHolding } from './fd-walk.js';

export class HolderReuse {
  private lastByPid = new Map<number, Holder[]>();

  /** `rows` are grouped by pid, in walk order; `scannedPids` null when the whole system was walked. */
  build(rows: readonly RawHolding[], infoOf: (pid: number) => ProcessInfo | null, scannedPids: readonly number[] | null): Holder[] {
    const byPid = scannedPids === null ? new Map<number, Holder[]>() : new Map(this.lastByPid);
    if (scannedPids) for (const pid of scannedPids) byPid.delete(pid);
    const holders: Holder[] = [];
    for (let start = 0; start < rows.length;) {
      const pid = rows[start]!.pid;
      let end = start;
      while (end < rows.length && rows[end]!.pid === pid) end++;
      const info = infoOf(pid);
      if (info) {
        const previous = this.lastByPid.get(pid);
        const group: Holder[] = [];
        for (let i = start; i < end; i++) {
          const old = previous?.[i - start];
          group.push(old && sameRow(old, rows[i]!, info) ? old : toHolder(rows[i]!, info));
        }
        byPid.set(pid, group);
        holders.push(...group);
      }
      start = end;
    }
    this.lastByPid = byPid;
    return holders;
  }
}

function sameRow(old: Holder, raw: RawHolding, info: ProcessInfo): boolean {
  return (
    old.processStartedAtMs === info.startedAtMs &&
    old.path === raw.path &&
    old.handle === raw.handle &&
    old.kind === raw.kind &&
    old.deleted === raw.deleted &&
    old.watchedDir === raw.watchedDir &&
    old.access === accessOf(raw) &&
    old.ppid === info.ppid &&
    old.commandLine === info.commandLine &&
    old.processName === info.name
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
    deleted: raw.deleted,
    handle: raw.handle,
    watchedDir: raw.watchedDir,
    ...(access ? { access } : {}),
  };
}

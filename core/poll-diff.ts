// The holders of the last poll, kept by process, and the diff of the next poll against them. A
// backend hands back the same Holder objects for unchanged rows (native/linux/holder-reuse.ts), so a
// process whose rows are the same objects in the same order is unchanged at one comparison per row,
// where a keyed diff of every row would be a large share of a steady poll (`npm run bench`).
import type { Holder } from '../contract/holders.js';
import { holderKey } from '../contract/identity.js';

export interface HolderDiff {
  appeared: Holder[];
  gone: Holder[];
  /** Rows held on by a process that is no longer what it was (exec): the same holding, its new row. */
  changed: Holder[];
}

export class PollDiff {
  private byPid = new Map<number, Holder[]>();

  /** Whether the process held something at the last poll. */
  holdsAnything(pid: number): boolean {
    return this.byPid.has(pid);
  }

  /** Every holder, grouped by process in the order their processes were first met. */
  current(): Holder[] {
    const all: Holder[] = [];
    for (const holders of this.byPid.values()) for (const h of holders) all.push(h);
    return all;
  }

  /**
   * Takes `next` as the current holders. When `scopePids` is given, the scan only looked at those
   * pids: holders of other processes are kept as they were, not reported gone.
   */
  update(next: readonly Holder[], scopePids?: ReadonlySet<number>): HolderDiff {
    const nextByPid = groupByPid(next);
    const appeared: Holder[] = [];
    const gone: Holder[] = [];
    const changed: Holder[] = [];
    const byPid = new Map<number, Holder[]>();
    for (const [pid, holders] of nextByPid) {
      const before = this.byPid.get(pid);
      if (before && sameObjects(before, holders)) {
        byPid.set(pid, before);
        continue;
      }
      byPid.set(pid, diffProcess(before ?? [], holders, { appeared, gone, changed }));
    }
    for (const [pid, holders] of this.byPid) {
      if (nextByPid.has(pid)) continue;
      if (scopePids && !scopePids.has(pid)) byPid.set(pid, holders);
      else for (const h of holders) gone.push(h);
    }
    this.byPid = byPid;
    return { appeared, gone, changed };
  }
}

/** One process's holders by identity key (one row per key, the last one kept); adds to the diff. */
function diffProcess(before: readonly Holder[], after: readonly Holder[], diff: HolderDiff): Holder[] {
  const previous = new Map(before.map((h) => [holderKey(h), h]));
  const current = new Map<string, Holder>();
  for (const h of after) current.set(holderKey(h), h);
  for (const [key, h] of current) {
    const was = previous.get(key);
    if (!was) diff.appeared.push(h);
    else if (was !== h && !sameProgram(was, h)) diff.changed.push(h);
  }
  for (const [key, h] of previous) if (!current.has(key)) diff.gone.push(h);
  return [...current.values()];
}

/**
 * exec (and a process renaming itself) changes its name and command line, not its pid, start time
 * or fds: a process first met between fork and exec is named as its parent until the row changes.
 * A new parent (reparenting) is not a new program, so ppid is left out.
 */
function sameProgram(a: Holder, b: Holder): boolean {
  return a.processName === b.processName && a.commandLine === b.commandLine && a.user === b.user;
}

function groupByPid(holders: readonly Holder[]): Map<number, Holder[]> {
  const byPid = new Map<number, Holder[]>();
  let pid = NaN;
  let group: Holder[] = [];
  for (const h of holders) {
    if (h.pid !== pid) {
      pid = h.pid;
      const existing = byPid.get(pid);
      group = existing ?? [];
      if (!existing) byPid.set(pid, group);
    }
    group.push(h);
  }
  return byPid;
}

function sameObjects(a: readonly Holder[], b: readonly Holder[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Short-lived holders, folded: a shell loop that writes `doc$i.idx` opens a hundred files for a
// moment each, every one closed inside its test. Listed one by one they bury the one handle that
// matters. The one rule both the report and the
// app fold by: a file the run saw opened and closed again within one test (verdict in-run, gone before
// the run's end), not a blocker of any failure, grouped by process (its children's with it) and folder;
// three or more files make a group.
import type { Holder } from './holders.js';
import { holderKey } from './identity.js';
import type { Attribution, AttributedHolder, RunRecord } from './runs.js';

export const FOLD_AT_LEAST = 3;

export interface TransientGroup<T> {
  pid: number;
  processName: string;
  /** The folder the files are in (the path up to its last separator). */
  dir: string;
  members: T[];
  /**
   * The distinct files among the members: one file can be seen as two handles of one process (a
   * shell opens `> f` at a free fd, then moves it to fd 1) or in a child's inherited copy.
   */
  files: number;
}

/**
 * `finalSightingMs`: when the run ended, the last sighting of the holders still held then (the final
 * scan dates every holder it sees at its start, the latest sighting there is); a handle seen then was
 * open at the end, not short-lived.
 */
export function isTransient(
  holder: Pick<Holder, 'kind'>,
  attribution: Pick<Attribution, 'verdict' | 'lastSeenAt'> | null,
  finalSightingMs: number | null,
): boolean {
  if (holder.kind !== 'file' || attribution?.verdict !== 'in-run') return false;
  return finalSightingMs === null || Date.parse(attribution.lastSeenAt) < finalSightingMs;
}

export function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut <= 0 ? path.slice(0, cut + 1) : path.slice(0, cut);
}

/**
 * Splits `items` into those shown as they are and groups of short-lived ones. `blocker(item)`: it
 * blocked a failure, so it is never folded away. `ended`: the run has ended (its final scan is in).
 */
export function foldTransient<T>(
  items: readonly T[],
  view: (item: T) => { holder: Holder; attribution: Pick<Attribution, 'verdict' | 'lastSeenAt'> | null },
  blocker: (item: T) => boolean,
  ended: boolean,
): { kept: T[]; groups: TransientGroup<T>[] } {
  let finalSightingMs: number | null = null;
  if (ended)
    for (const item of items) {
      const seen = view(item).attribution?.lastSeenAt;
      if (seen) finalSightingMs = Math.max(finalSightingMs ?? -Infinity, Date.parse(seen));
    }
  const candidates = new Map<string, TransientGroup<T>>();
  const kept: T[] = [];
  for (const item of items) {
    const { holder, attribution } = view(item);
    if (!isTransient(holder, attribution, finalSightingMs) || blocker(item)) {
      kept.push(item);
      continue;
    }
    const dir = parentOf(holder.path);
    const key = `${holder.pid}@${holder.processStartedAtMs}\0${dir}`;
    let group = candidates.get(key);
    if (!group) candidates.set(key, (group = { pid: holder.pid, processName: holder.processName, dir, members: [], files: 0 }));
    group.members.push(item);
  }
  joinParents(candidates, view);
  const groups: TransientGroup<T>[] = [];
  for (const group of candidates.values()) {
    group.files = new Set(group.members.map((item) => view(item).holder.path)).size;
    if (group.files >= FOLD_AT_LEAST) groups.push(group);
    else kept.push(...group.members);
  }
  return { kept, groups };
}

/**
 * A child's group joins its parent's in the same folder: a loop's `cmd > f$i` may be seen in the
 * forked command (which inherits the file as its stdout) when a poll missed the shell holding it,
 * and it is the loop's file all the same. Chains join their nearest ancestor with a group.
 */
function joinParents<T>(candidates: Map<string, TransientGroup<T>>, view: (item: T) => { holder: Holder }): void {
  const byPidDir = new Map<string, TransientGroup<T>>();
  for (const group of candidates.values()) byPidDir.set(`${group.pid}\0${group.dir}`, group);
  const parentOfGroup = (group: TransientGroup<T>): TransientGroup<T> | undefined => {
    const { ppid, processStartedAtMs } = view(group.members[0]!).holder;
    const parent = byPidDir.get(`${ppid}\0${group.dir}`);
    return parent && parent !== group && view(parent.members[0]!).holder.processStartedAtMs <= processStartedAtMs ? parent : undefined;
  };
  for (const [key, group] of [...candidates]) {
    let root = parentOfGroup(group);
    for (let hops = 0; root && hops < 64; hops++) {
      const up = parentOfGroup(root);
      if (!up) break;
      root = up;
    }
    if (!root) continue;
    root.members.push(...group.members);
    candidates.delete(key);
  }
}

/** A run's holders (or a subset, sorted as the caller shows them) folded, the blockers of its failures kept. */
export function foldRecordHolders(
  record: Pick<RunRecord, 'failures' | 'endedAt'>,
  holders: readonly AttributedHolder[],
): { kept: AttributedHolder[]; groups: TransientGroup<AttributedHolder>[] } {
  const blockers = new Set(record.failures.flatMap((f) => f.holders.map(holderKey)));
  return foldTransient(
    holders,
    (h) => ({ holder: h, attribution: h.attribution }),
    (h) => blockers.has(holderKey(h)),
    record.endedAt !== null,
  );
}

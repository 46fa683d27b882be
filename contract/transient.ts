// Short-lived holders, folded: a shell loop that writes `doc$i.idx` opens a hundred files for a
// moment each, every one closed inside its test. Listed one by one they bury the one handle that
// matters (the review's shell suite: 128 rows, 119 of them such). The one rule both the report and the
// app fold by: a file the run saw opened and closed again within one test (verdict in-run, gone before
// the run's end), not a blocker of any failure, grouped by process and folder; three or more make a group.
import type { Holder } from './holders.js';
import type { Attribution } from './runs.js';

export const FOLD_AT_LEAST = 3;
/** Seen this close to the run's end, a handle was still open when the run ended: not short-lived. */
const HELD_TO_END_MS = 500;

export interface TransientGroup<T> {
  pid: number;
  processName: string;
  /** The folder the files are in (the path up to its last separator). */
  dir: string;
  members: T[];
}

export function isTransient(holder: Pick<Holder, 'kind'>, attribution: Pick<Attribution, 'verdict' | 'lastSeenAt'> | null, runEndMs: number | null): boolean {
  if (holder.kind !== 'file' || attribution?.verdict !== 'in-run') return false;
  return runEndMs === null || Date.parse(attribution.lastSeenAt) < runEndMs - HELD_TO_END_MS;
}

export function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut <= 0 ? path.slice(0, cut + 1) : path.slice(0, cut);
}

/**
 * Splits `items` into those shown as they are and groups of short-lived ones. `blocker(item)`: it
 * blocked a failure, so it is never folded away. `runEndMs`: the run's end, when it ended.
 */
export function foldTransient<T>(
  items: readonly T[],
  view: (item: T) => { holder: Holder; attribution: Pick<Attribution, 'verdict' | 'lastSeenAt'> | null },
  blocker: (item: T) => boolean,
  runEndMs: number | null,
): { kept: T[]; groups: TransientGroup<T>[] } {
  const candidates = new Map<string, TransientGroup<T>>();
  const kept: T[] = [];
  for (const item of items) {
    const { holder, attribution } = view(item);
    if (!isTransient(holder, attribution, runEndMs) || blocker(item)) {
      kept.push(item);
      continue;
    }
    const dir = parentOf(holder.path);
    const key = `${holder.pid}@${holder.processStartedAtMs}\0${dir}`;
    let group = candidates.get(key);
    if (!group) candidates.set(key, (group = { pid: holder.pid, processName: holder.processName, dir, members: [] }));
    group.members.push(item);
  }
  const groups: TransientGroup<T>[] = [];
  for (const group of candidates.values()) {
    if (group.members.length >= FOLD_AT_LEAST) groups.push(group);
    else kept.push(...group.members);
  }
  return { kept, groups };
}

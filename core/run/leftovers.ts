// Leftovers: what the run created under a watched dir and did not remove, grouped by the test during
// which it appeared. Only the top-most new path is reported (a new folder, not each file inside it).
import type { LeftoverRecord } from '../api.js';
import type { PathStyle } from '../paths.js';

export interface CreatedEntry {
  path: string;
  createdAtMs: number;
}

export function findLeftovers(
  before: ReadonlySet<string>,
  after: readonly CreatedEntry[],
  testAt: (ms: number) => string | null,
  style: PathStyle,
): LeftoverRecord[] {
  const fresh = after.filter((e) => !before.has(e.path)).sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  const fold = (p: string) => (style.caseInsensitive ? p.toUpperCase() : p);
  const topKeys = new Set<string>();
  const tops: CreatedEntry[] = [];
  for (const entry of fresh) {
    if (hasAncestorIn(fold(entry.path), topKeys, style)) continue;
    topKeys.add(fold(entry.path));
    tops.push(entry);
  }
  return tops.sort((a, b) => a.createdAtMs - b.createdAtMs).map((e) => ({ path: e.path, createdDuring: testAt(e.createdAtMs) }));
}

function hasAncestorIn(path: string, keys: ReadonlySet<string>, style: PathStyle): boolean {
  for (let i = path.indexOf(style.sep, 1); i > 0; i = path.indexOf(style.sep, i + 1)) if (keys.has(path.slice(0, i))) return true;
  return false;
}

// Leftovers: what the run created under a watched dir and did not remove, grouped by the test during
// which it appeared. Only the top-most new path per test is reported: a new folder, not each file in
// it — unless a file appeared in it during a later test, which then has a leftover of its own.
import type { LeftoverRecord } from '../../contract/runs.js';
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
  const testOfNew = new Map<string, string | null>();
  const tops: LeftoverRecord[] = [];
  for (const entry of fresh) {
    const test = testAt(entry.createdAtMs);
    testOfNew.set(fold(entry.path), test);
    const parentTest = newAncestorTest(fold(entry.path), testOfNew, style);
    if (parentTest !== undefined && parentTest === test) continue;
    tops.push({ path: entry.path, createdDuring: test });
  }
  const createdAt = new Map(fresh.map((e) => [e.path, e.createdAtMs]));
  return tops.sort((a, b) => createdAt.get(a.path)! - createdAt.get(b.path)!);
}

/** The test of the nearest new ancestor; undefined when no ancestor is new. */
function newAncestorTest(path: string, testOfNew: ReadonlyMap<string, string | null>, style: PathStyle): string | null | undefined {
  for (let i = path.lastIndexOf(style.sep); i > 0; i = path.lastIndexOf(style.sep, i - 1)) {
    const key = path.slice(0, i);
    if (testOfNew.has(key)) return testOfNew.get(key);
  }
  return undefined;
}

// Leftovers: what the run created under a watched dir and did not remove, grouped by the test during
// which it appeared. Only the top-most new path per test is reported: a new folder, not each file in
// it — unless a file appeared in it during a later test, which then has a leftover of its own.
import type { LeftoverRecord } from '../../contract/runs.js';
import type { PathStyle } from '../paths.js';

export interface CreatedEntry {
  path: string;
  /** Where `path` is not UTF-8: its bytes, base64. */
  pathBytesBase64?: string;
  createdAtMs: number;
}

/** Where in the run a moment falls: during a test, or else after the last test that had ended (null: before the first). */
export interface RunPlace {
  during: string | null;
  after: string | null;
}

/**
 * `created`: the entries under a watched dir that were not there before the run.
 * `birthTickMs`: how far behind the moment a birth time may read (Linux stamps file times from the
 * kernel's coarse clock, which advances once a tick). The moment lies within that tick after the stamp;
 * it is placed at the tick's middle, the least error either way.
 */
export function findLeftovers(created: readonly CreatedEntry[], placeAt: (ms: number) => RunPlace, style: PathStyle, birthTickMs = 0): LeftoverRecord[] {
  const fresh = [...created].sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
  const fold = (p: string) => (style.caseInsensitive ? p.toUpperCase() : p);
  // A place as one comparable word: a file that appeared where its new folder did is not listed apart.
  const placeKey = (p: RunPlace) => (p.during !== null ? `during:${p.during}` : p.after !== null ? `after:${p.after}` : 'before');
  const placeOfNew = new Map<string, string>();
  const tops: LeftoverRecord[] = [];
  for (const entry of fresh) {
    const place = placeAt(entry.createdAtMs + birthTickMs / 2);
    const key = placeKey(place);
    placeOfNew.set(fold(entry.path), key);
    const parentPlace = newAncestorPlace(fold(entry.path), placeOfNew, style);
    if (parentPlace !== undefined && parentPlace === key) continue;
    const bytes = entry.pathBytesBase64 !== undefined ? { pathBytesBase64: entry.pathBytesBase64 } : {};
    tops.push({
      path: entry.path,
      ...bytes,
      createdDuring: place.during,
      ...(place.during === null && place.after !== null ? { createdAfter: place.after } : {}),
    });
  }
  const createdAt = new Map(fresh.map((e) => [e.path, e.createdAtMs]));
  return tops.sort((a, b) => createdAt.get(a.path)! - createdAt.get(b.path)!);
}

/** The place of the nearest new ancestor; undefined when no ancestor is new. */
function newAncestorPlace(path: string, placeOfNew: ReadonlyMap<string, string>, style: PathStyle): string | undefined {
  for (let i = path.lastIndexOf(style.sep); i > 0; i = path.lastIndexOf(style.sep, i - 1)) {
    const key = path.slice(0, i);
    if (placeOfNew.has(key)) return placeOfNew.get(key);
  }
  return undefined;
}

// What a run left under a directory, for its leftovers. Before the command the tree is listed as names
// only (readdir's entry types say which are dirs: no stat per file) and kept as one 53-bit hash per path
// in a sorted Float64Array — a few bytes an entry, no path strings held for the run's length. After the
// command the tree is listed again the same way, and only the paths the first listing lacked are
// stat'ed for their birth time. Reads never follow symlinks and keep nothing open: each readdir closes
// before the next.
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { coarseClockTickMs } from './linux/coarse-clock.js';

export interface TreeEntry {
  path: string;
  /** Birth time where the filesystem records it, else the change time. */
  createdAtMs: number;
  isDirectory: boolean;
}

/** The paths under a root when it was listed, as sorted hashes (pathHashes). */
export interface TreeSnapshot {
  readonly root: string;
  readonly hashes: Float64Array;
}

/** Past this many entries a listing stops: a tree that size is no test's scratch dir. */
const MAX_ENTRIES = 2_000_000;

/**
 * How much earlier than the moment a birth time may read: Linux stamps file times from the kernel's
 * coarse clock (one tick behind at most). Elsewhere taken as exact.
 */
export function birthTimeTickMs(): number {
  return process.platform === 'linux' ? coarseClockTickMs() : 0;
}

export function snapshotTree(root: string): TreeSnapshot {
  const hashes: number[] = [];
  walkTree(root, (_dir, _entry, hash) => {
    hashes.push(hash);
    return true;
  });
  return { root, hashes: Float64Array.from(hashes).sort() };
}

/** What is under the snapshot's root now and was not when it was taken, each stat'ed once. */
export function listNewEntries(before: TreeSnapshot): TreeEntry[] {
  const entries: TreeEntry[] = [];
  walkTree(before.root, (dir, entry, hash) => {
    if (hasHash(before.hashes, hash)) return true;
    const path = join(dir, entry.name);
    try {
      const stat = lstatSync(path);
      entries.push({ path, createdAtMs: stat.birthtimeMs > 0 ? stat.birthtimeMs : stat.ctimeMs, isDirectory: stat.isDirectory() });
      return true;
    } catch {
      return false; // gone between readdir and lstat
    }
  });
  return entries;
}

/**
 * Depth first under `root`, each entry with its path's hash; a dir's entries are listed when `visit`
 * returns true for it. Stops after MAX_ENTRIES entries.
 */
function walkTree(root: string, visit: (dir: string, entry: Dirent, hash: number) => boolean): void {
  const stack: { dir: string; hash: PathHash }[] = [{ dir: root, hash: ROOT_HASH }];
  let count = 0;
  while (stack.length > 0 && count < MAX_ENTRIES) {
    const { dir, hash } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // removed meanwhile, or unreadable
    }
    for (const entry of entries) {
      count++;
      const child = childHash(hash, entry.name);
      if (visit(dir, entry, hashNumber(child)) && entry.isDirectory()) stack.push({ dir: join(dir, entry.name), hash: child });
    }
  }
}

/** Two independent 32-bit hashes of a path below the root, chained name by name. */
type PathHash = readonly [number, number];
const ROOT_HASH: PathHash = [0x811c9dc5, 0x9747b28c];

function childHash([a, b]: PathHash, name: string): PathHash {
  // A separator first, so that "ab"/"c" and "a"/"bc" differ.
  a = Math.imul(a ^ 0x2f, 0x01000193);
  b = Math.imul(b ^ 0x2f, 0x5bd1e995);
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193); // FNV-1a
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return [a >>> 0, b >>> 0];
}

/** 53 bits of the pair, exact in a double: a new path is taken for one of 200,000 old ones about once in 45 billion. */
function hashNumber([a, b]: PathHash): number {
  return a * 0x200000 + (b & 0x1fffff);
}

function hasHash(sorted: Float64Array, hash: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = sorted[middle]!;
    if (value === hash) return true;
    if (value < hash) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

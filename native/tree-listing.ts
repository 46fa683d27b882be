// What a run left under a directory, for its leftovers. Before the command the tree is listed as names
// only (readdir's entry types say which are dirs: no stat per file) and kept as one 53-bit hash per path
// in a sorted Float64Array — a few bytes an entry, no path strings held for the run's length. After the
// command the tree is listed again the same way, and only the paths the first listing lacked are
// stat'ed for their birth time. Reads never follow symlinks and keep nothing open: each readdir closes
// before the next. A name that is not UTF-8 is read as its bytes, which name it on disk where its
// decoded text (U+FFFD where the bytes were) names nothing.
import { isUtf8 } from 'node:buffer';
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { coarseClockTickMs } from './linux/coarse-clock.js';

export interface TreeEntry {
  path: string;
  /** Where `path` is not UTF-8: its bytes, base64 (as Holder.pathBytesBase64). */
  pathBytesBase64?: string;
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
    const path = join(dir.path, entry.name);
    const bytes = dir.bytes || entry.nameBytes ? childBytes(dir, entry) : null;
    try {
      const stat = lstatSync(bytes ?? path);
      const createdAtMs = stat.birthtimeMs > 0 ? stat.birthtimeMs : stat.ctimeMs;
      entries.push({ path, ...(bytes ? { pathBytesBase64: bytes.toString('base64') } : {}), createdAtMs, isDirectory: stat.isDirectory() });
      return true;
    } catch {
      return false; // gone between readdir and lstat
    }
  });
  return entries;
}

/** A dir being walked: its path as text, and as bytes once it or a dir above it is not UTF-8. */
interface WalkedDir {
  path: string;
  bytes: Buffer | null;
}

interface WalkedEntry {
  /** As text (U+FFFD for bytes that are not UTF-8). */
  name: string;
  /** The name's bytes where they are not UTF-8; else null. */
  nameBytes: Buffer | null;
  isDirectory: boolean;
}

const childBytes = (dir: WalkedDir, entry: WalkedEntry): Buffer =>
  Buffer.concat([dir.bytes ?? Buffer.from(dir.path), Buffer.from('/'), entry.nameBytes ?? Buffer.from(entry.name)]);

/**
 * A dir's entries; read again as bytes when a name came back with U+FFFD (or the dir's own path is
 * bytes), the rare case that costs a second readdir. null when it is gone or unreadable.
 */
function readEntries(dir: WalkedDir): WalkedEntry[] | null {
  try {
    if (dir.bytes === null) {
      const entries = readdirSync(dir.path, { withFileTypes: true });
      if (!entries.some((e) => e.name.includes('\uFFFD'))) return entries.map((e) => ({ name: e.name, nameBytes: null, isDirectory: e.isDirectory() }));
    }
    return readdirSync(dir.bytes ?? dir.path, { withFileTypes: true, encoding: 'buffer' }).map((e) => ({
      name: e.name.toString('utf8'),
      nameBytes: isUtf8(e.name) ? null : e.name,
      isDirectory: e.isDirectory(),
    }));
  } catch {
    return null; // removed meanwhile, or unreadable
  }
}

/**
 * Depth first under `root`, each entry with its path's hash; a dir's entries are listed when `visit`
 * returns true for it. Stops after MAX_ENTRIES entries.
 */
function walkTree(root: string, visit: (dir: WalkedDir, entry: WalkedEntry, hash: number) => boolean): void {
  const stack: { dir: WalkedDir; hash: PathHash }[] = [{ dir: { path: root, bytes: null }, hash: ROOT_HASH }];
  let count = 0;
  while (stack.length > 0 && count < MAX_ENTRIES) {
    const { dir, hash } = stack.pop()!;
    const entries = readEntries(dir);
    if (entries === null) continue;
    for (const entry of entries) {
      count++;
      // Bytes hashed as one char each: two names that decode alike stay two paths.
      const child = childHash(hash, entry.nameBytes ? entry.nameBytes.toString('latin1') : entry.name);
      if (visit(dir, entry, hashNumber(child)) && entry.isDirectory) {
        const path = join(dir.path, entry.name);
        stack.push({ dir: { path, bytes: dir.bytes || entry.nameBytes ? childBytes(dir, entry) : null }, hash: child });
      }
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

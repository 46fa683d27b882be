// The hot path: walk /proc/<pid>/{fd,cwd,root,exe,maps} for a set of pids and keep what lies under
// the watched dirs. Synchronous on purpose: thousands of tiny readlinks are cheapest without a
// promise each; parallelism comes from splitting pids across threads (scan-pool.ts).
import { closeSync, lstatSync, openSync, readlinkSync, readSync, statSync } from 'node:fs';
import type { HolderKind, ProcessInfo } from '../../contract/holders.js';
import { isUnder, POSIX_STYLE, splitDeletedSuffix } from '../../core/paths.js';
import type { FdKindCache, PidKinds } from './fd-kind-cache.js';
import { libcFdLinks, linkPrefixes, nodeFdLinks, type FdLinkReader, type LinkPrefixes } from './fd-links.js';
import { isGoneError, readProcessInfo } from './proc-stat.js';

/** The part of a WatchDir the walk needs; plain data so it can cross to a worker thread. */
export interface MatchDir {
  matchPrefix: string;
  display: string;
}

export interface RawHolding {
  pid: number;
  kind: HolderKind;
  path: string;
  deleted: boolean;
  handle: string | null;
  watchedDir: string;
  /** An fd's access mode as open(2) flags (accessModeOfLink); null for rows without an fd or when unreadable. */
  openFlags: number | null;
}

export interface WalkResult {
  holdings: RawHolding[];
  /**
   * Facts of each process with holdings, read by the thread that walked it, right after the walk;
   * null when it exited in between (its holdings are then dropped).
   */
  infos: [pid: number, info: ProcessInfo | null][];
  denied: { pid: number; reason: string }[];
  processCount: number;
  handleCount: number;
}

function dirOf(path: string, dirs: readonly MatchDir[]): MatchDir | undefined {
  for (const dir of dirs) if (isUnder(path, dir.matchPrefix, POSIX_STYLE)) return dir;
  return undefined;
}

export interface WalkOptions {
  /** Kinds remembered from the previous walk (a long-lived watcher's). */
  kinds?: FdKindCache;
  /** Every process this walker's cache is for, when known (a full scan): it forgets the others. */
  cover?: readonly number[];
  /** How the fd links are read; by default Node's fs on this thread's first walk, libc after (fd-links.ts). */
  links?: FdLinkReader;
}

let walksOnThisThread = 0;

/** Node's fs for a thread's first walk (a one-shot scan never loads koffi), libc from its second on when it loads. */
function defaultLinks(): FdLinkReader {
  return walksOnThisThread++ === 0 ? nodeFdLinks : (libcFdLinks() ?? nodeFdLinks);
}

export function walkPids(pids: Iterable<number>, dirs: readonly MatchDir[], options: WalkOptions = {}): WalkResult {
  const result: WalkResult = { holdings: [], infos: [], denied: [], processCount: 0, handleCount: 0 };
  const { kinds } = options;
  if (kinds && options.cover) kinds.retainOnly(options.cover);
  const links = options.links ?? defaultLinks();
  const prefixes = linkPrefixes(dirs.map((d) => d.matchPrefix));
  for (const pid of pids) {
    const before = result.holdings.length;
    try {
      walkPid(pid, dirs, result, kinds, links, prefixes);
    } catch (error) {
      kinds?.forget(pid);
      if (isGoneError(error)) continue; // exited mid-scan: normal
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') result.denied.push({ pid, reason: `${code} reading /proc/${pid}/fd` });
      else throw error;
      continue;
    }
    if (result.holdings.length > before) result.infos.push([pid, readProcessInfo(pid)]);
  }
  return result;
}

function walkPid(pid: number, dirs: readonly MatchDir[], out: WalkResult, kinds: FdKindCache | undefined, links: FdLinkReader, prefixes: LinkPrefixes): void {
  const base = `/proc/${pid}/`;
  const known = kinds?.of(pid);
  let seen: PidKinds | undefined;
  const fdCount = links.read(pid, prefixes, (fd, target) => {
    const dir = dirOf(target, dirs);
    if (!dir) return;
    const fdPath = base + 'fd/' + fd;
    const { path, deleted } = resolveDeleted(target, () => statSync(fdPath).nlink === 0);
    let facts = known?.get(fd);
    if (facts === undefined || facts.target !== target) {
      const statted = isDirectoryFd(fdPath);
      // The access mode is read with the kind, once per (fd, target): see fd-kind-cache.ts.
      facts = statted === null ? undefined : { target, dir: statted, flags: accessModeOfLink(fdPath) };
    }
    if (facts && kinds) (seen ??= new Map()).set(fd, facts);
    out.holdings.push({ pid, kind: facts?.dir ? 'dir' : 'file', path, deleted, handle: `fd ${fd}`, watchedDir: dir.display, openFlags: facts?.flags ?? null });
  });
  out.processCount++;
  out.handleCount += fdCount;
  kinds?.remember(pid, seen);
  const exe = readLinkOrNull(base + 'exe');
  for (const kind of ['cwd', 'root', 'exe'] as const) {
    const target = kind === 'exe' ? exe : readLinkOrNull(base + kind);
    if (target === null) continue;
    const dir = dirOf(target, dirs);
    if (!dir) continue;
    const { path, deleted } = resolveDeleted(target, () => !pathExists(splitDeletedSuffix(target).path));
    out.holdings.push({ pid, kind, path, deleted, handle: null, watchedDir: dir.display, openFlags: null });
  }
  walkMaps(pid, dirs, exe === null ? null : splitDeletedSuffix(exe).path, out);
}

/** One `mmap` row per mapped path per process; the executable's own mapping is the `exe` row. */
function walkMaps(pid: number, dirs: readonly MatchDir[], exePath: string | null, out: WalkResult): void {
  const length = readMaps(pid);
  if (length === null) return;
  // Most processes map nothing under the dirs: look for the bytes before making a string of them.
  const bytes = mapsBuffer.subarray(0, length);
  // (A prefix with U+FFFD came from undecodable bytes: only the decoded text can be searched for it.)
  if (!dirs.some((d) => d.matchPrefix.includes('\uFFFD') || bytes.includes(d.matchPrefix))) return;
  const text = bytes.toString('utf8');
  if (!dirs.some((d) => text.includes(d.matchPrefix))) return;
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    const mapping = parseMapsLine(line);
    if (!mapping || seen.has(mapping.target)) continue;
    seen.add(mapping.target);
    const dir = dirOf(mapping.target, dirs);
    if (!dir) continue;
    const { path, deleted } = resolveDeleted(mapping.target, () => inodeOf(splitDeletedSuffix(mapping.target).path) !== mapping.inode);
    if (path === exePath) continue;
    out.holdings.push({ pid, kind: 'mmap', path, deleted, handle: null, watchedDir: dir.display, openFlags: null });
  }
}

// One buffer per thread, reused for every process's maps (a string per process cost more than the
// read itself); it grows to the largest maps met.
let mapsBuffer = Buffer.allocUnsafe(256 * 1024);

/** Reads /proc/<pid>/maps into mapsBuffer; its length, or null when the process is gone or denies it. */
function readMaps(pid: number): number | null {
  let fd: number;
  try {
    fd = openSync(`/proc/${pid}/maps`, 'r');
  } catch (error) {
    if (isGoneError(error) || (error as NodeJS.ErrnoException).code === 'EACCES') return null;
    throw error;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === mapsBuffer.length) {
        const bigger = Buffer.allocUnsafe(mapsBuffer.length * 2);
        mapsBuffer.copy(bigger);
        mapsBuffer = bigger;
      }
      const read = readSync(fd, mapsBuffer, length, mapsBuffer.length - length, null);
      if (read === 0) return length;
      length += read;
    }
  } catch (error) {
    // The process exited while its maps were read (ESRCH), or denies them: like the original, nothing.
    if (isGoneError(error) || (error as NodeJS.ErrnoException).code === 'EACCES') return null;
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** `addr perms offset dev inode   path` — the path (which may contain spaces) starts at column 6. */
export function parseMapsLine(line: string): { inode: number; target: string } | null {
  const match = /^\S+ \S+ \S+ \S+ (\d+) +(\/.*)$/.exec(line);
  return match ? { inode: Number(match[1]), target: match[2]! } : null;
}

/**
 * Strips Linux's " (deleted)" mark when `isReallyDeleted` confirms it; a file may truly be named
 * "x (deleted)", which the confirmation (link count, inode) tells apart.
 */
function resolveDeleted(target: string, isReallyDeleted: () => boolean): { path: string; deleted: boolean } {
  const { path, suffixed } = splitDeletedSuffix(target);
  if (!suffixed) return { path: target, deleted: false };
  let deleted: boolean;
  try {
    deleted = isReallyDeleted();
  } catch {
    deleted = true;
  }
  return deleted ? { path, deleted } : { path: target, deleted };
}

function readLinkOrNull(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (isGoneError(error) || code === 'EACCES' || code === 'EPERM') return null;
    throw error;
  }
}

const O_PATH = 0o10000000;

/**
 * The fd's access mode as open(2) flags (O_RDONLY, O_WRONLY, O_RDWR; O_PATH when neither), from the
 * mode of its /proc/<pid>/fd link: the kernel sets the link's owner r and w bits from the open file's
 * FMODE_READ and FMODE_WRITE (fs/proc/fd.c). One lstat, where fdinfo costs an open, a read and a close:
 * measured, that was +86% on a cold scan of 8,000 held fds. The full flags are read for the details panel.
 */
function accessModeOfLink(fdPath: string): number | null {
  const mode = lstatSync(fdPath, { throwIfNoEntry: false })?.mode;
  if (mode === undefined) return null;
  const read = (mode & 0o400) !== 0;
  const write = (mode & 0o200) !== 0;
  return read && write ? 2 : write ? 1 : read ? 0 : O_PATH;
}

/** null when the fd closed before it could be statted (then it is reported as a file, and not remembered). */
function isDirectoryFd(fdPath: string): boolean | null {
  try {
    return statSync(fdPath).isDirectory();
  } catch {
    return null;
  }
}

function pathExists(path: string): boolean {
  return inodeOf(path) !== null;
}

function inodeOf(path: string): number | null {
  try {
    return statSync(path).ino;
  } catch {
    return null;
  }
}

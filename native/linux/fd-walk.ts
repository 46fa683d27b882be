// The hot path: walk /proc/<pid>/{fd,cwd,root,exe,maps} for a set of pids and keep what lies under
// the watched dirs. Synchronous on purpose: thousands of tiny readlinks are cheapest without a
// promise each; a poller runs it on a thread of its own (scan-pool.ts).
import { isUtf8 } from 'node:buffer';
import { lstatSync, statSync } from 'node:fs';
import type { HolderKind, ProcessInfo } from '../../contract/holders.js';
import { isUnder, POSIX_STYLE, splitDeletedSuffix } from '../../core/paths.js';
import type { FdKindCache, PidKinds } from './fd-kind-cache.js';
import { linkPrefixes, openFlagsOfLinkMode, readLinkBytes, type LinkPrefixes } from './fd-links.js';
import type { FdRowMemo } from './fd-row-memo.js';
import { LinkBatch, type LinkFacts } from './link-batch.js';
import { isGoneError } from './proc-errors.js';
import { procReaderForWalk, ReadBuffer, type ProcReader } from './proc-reader.js';
import type { QuietProcesses } from './quiet-processes.js';
import type { MapsMemo } from './maps-memo.js';
import { readProcessFacts } from './proc-stat.js';

/** The part of a WatchDir the walk needs; plain data so it can cross to a worker thread. */
export interface MatchDir {
  matchPrefix: string;
  display: string;
}

export interface RawHolding {
  pid: number;
  kind: HolderKind;
  path: string;
  /** Where `path` is not UTF-8: its bytes, base64 (Holder.pathBytesBase64). */
  pathBytesBase64?: string;
  deleted: boolean;
  handle: string | null;
  watchedDir: string;
  /** An fd's access mode as open(2) flags (accessModeOfLink); null for rows without an fd or when unreadable. */
  openFlags: number | null;
}

/** One process that holds something under the dirs, with its facts, read right after its walk. */
export interface PidHoldings {
  pid: number;
  /** Its fd rows: the very array of an earlier walk while its links are unchanged (fd-row-memo.ts). */
  fdRows: readonly RawHolding[];
  /** The walk that made `fdRows` when it was an earlier one (a worker's answer names it instead of sending them); else null. */
  fdRowsOfWalk: number | null;
  /** Its cwd, root, exe and mmap rows: a few at most, made by every walk. */
  otherRows: RawHolding[];
  info: ProcessInfo;
  /** Where its stack starts (StatFields.stackStart): HolderReuse tells an exec by it. */
  stackStart: number;
}

export interface WalkResult {
  /** In walk order. A process that exited before its facts could be read is not here. */
  groups: PidHoldings[];
  denied: { pid: number; reason: string }[];
  processCount: number;
  handleCount: number;
}

/** Every row of a walk, for the callers that want them flat. */
export function holdingsOf(result: WalkResult): RawHolding[] {
  return result.groups.flatMap((g) => [...g.fdRows, ...g.otherRows]);
}

function dirOf(path: string, dirs: readonly MatchDir[]): MatchDir | undefined {
  for (const dir of dirs) if (isUnder(path, dir.matchPrefix, POSIX_STYLE)) return dir;
  return undefined;
}

export interface WalkOptions {
  /** Kinds remembered from the previous walk (a long-lived watcher's). */
  kinds?: FdKindCache;
  /** Rows remembered from the previous walk (a long-lived watcher's thread). */
  memo?: FdRowMemo;
  /** This walk's id, stamped on the rows it makes for the memo. */
  walkId?: number;
  /** Every process this walker's caches are for, when known (a full scan): they forget the others. */
  cover?: readonly number[];
  /** How /proc is read; by default as procReaderForWalk chooses (proc-reader.ts). */
  reader?: ProcReader;
  /** With `reader`: have it stat each matching fd as it reads the link (a libc reader does; Node's fs stats later). */
  withFacts?: boolean;
  /** The processes that held nothing at their last walk (a long-lived watcher's thread). */
  quiet?: QuietProcesses;
  /** Skip the walk of a quiet process whose fd count, cwd and root are unchanged (quiet-processes.ts). */
  idleCheck?: boolean;
  /** The processes whose maps held nothing under the dirs, by their statm (a long-lived watcher's thread). */
  maps?: MapsMemo;
}

interface Walk {
  dirs: readonly MatchDir[];
  prefixes: LinkPrefixes;
  reader: ProcReader;
  /** The reader stats each matching fd as it reads its link (procReaderForWalk). */
  withFacts: boolean;
  kinds: FdKindCache | undefined;
  memo: FdRowMemo | undefined;
  quiet: QuietProcesses | undefined;
  /** Skip the quiet processes whose fd count, cwd and root are unchanged. */
  idleCheck: boolean;
  /**
   * Remember quiet processes: a walk of the whole system does (three calls a quiet process, a small
   * part of its walk), so the idle check after a thorough scan already skips them; a focus poll not.
   */
  remember: boolean;
  maps: MapsMemo | undefined;
  /** Read every process's maps, whatever `maps` remembers: a thorough scan of the whole system. */
  rereadMaps: boolean;
  walkId: number;
  out: WalkResult;
}

// One of each per thread, reused for every process.
const batch = new LinkBatch();
const mapsBuffer = new ReadBuffer();

export function walkPids(pids: Iterable<number>, dirs: readonly MatchDir[], options: WalkOptions = {}): WalkResult {
  const out: WalkResult = { groups: [], denied: [], processCount: 0, handleCount: 0 };
  const { kinds, memo, quiet, maps } = options;
  memo?.useDirs(dirs);
  quiet?.useDirs(dirs);
  maps?.useDirs(dirs);
  if (options.cover) {
    kinds?.retainOnly(options.cover);
    memo?.retainOnly(options.cover);
    quiet?.retainOnly(options.cover);
    maps?.retainOnly(options.cover);
  }
  const pidList = Array.isArray(pids) ? (pids as readonly number[]) : [...pids];
  const { reader, withFacts } = options.reader ? { reader: options.reader, withFacts: options.withFacts === true } : procReaderForWalk();
  const walk: Walk = {
    dirs,
    prefixes: linkPrefixes(dirs.map((d) => d.matchPrefix)),
    reader,
    withFacts,
    kinds,
    memo,
    quiet,
    idleCheck: options.idleCheck === true && quiet !== undefined,
    remember: quiet !== undefined && (options.idleCheck === true || options.cover !== undefined),
    maps,
    rereadMaps: options.cover !== undefined && options.idleCheck !== true,
    walkId: options.walkId ?? 0,
    out,
  };
  for (const pid of pidList) {
    try {
      if (walk.idleCheck && quiet!.isStillQuiet(pid, walk.reader)) {
        out.processCount++;
        continue;
      }
      walkPid(pid, walk);
    } catch (error) {
      kinds?.forget(pid);
      memo?.forget(pid);
      quiet?.forget(pid);
      maps?.forget(pid);
      if (isGoneError(error)) continue; // exited mid-scan: normal
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') out.denied.push({ pid, reason: `${code} reading /proc/${pid}/fd` });
      else throw error;
    }
  }
  return out;
}

function walkPid(pid: number, walk: Walk): void {
  const { dirs, reader, out } = walk;
  const base = `/proc/${pid}/`;
  out.handleCount += reader.fdLinks.read(pid, walk.prefixes, batch, walk.withFacts);
  out.processCount++;
  const otherRows: RawHolding[] = [];
  const exe = reader.readLink(base + 'exe');
  for (const kind of ['cwd', 'root', 'exe'] as const) {
    const target = kind === 'exe' ? exe : reader.readLink(base + kind);
    if (target === null) continue;
    const dir = dirOf(target, dirs);
    if (!dir) continue;
    const { path, deleted } = resolveDeleted(target, () => !pathExists(splitDeletedSuffix(target).path));
    const bytes = target.includes('\uFFFD') ? nonUtf8Bytes(readLinkBytes(base + kind), path !== target) : null;
    otherRows.push({ pid, kind, path, ...(bytes ? { pathBytesBase64: bytes } : {}), deleted, handle: null, watchedDir: dir.display, openFlags: null });
  }
  // No exe: a kernel thread (no mappings), a process being reaped, or one that denies it, and then its
  // maps too (both need ptrace's read access). 60 kernel threads here: 180 calls a poll saved.
  if (exe !== null) walkMapsOnce(pid, splitDeletedSuffix(exe).path, walk, otherRows);
  if (batch.count === 0 && otherRows.length === 0) {
    walk.kinds?.forget(pid);
    walk.memo?.forget(pid);
    if (walk.remember) walk.quiet?.remember(pid, reader);
    return;
  }
  const remembered = walk.memo?.get(pid);
  const sameLinks = remembered !== undefined && !batch.marked && batch.equals(remembered.bytes);
  // Links that only start like a dir ("<dir>-other/..."), as last time: nothing to read or make.
  if (sameLinks && remembered.rows.length === 0 && otherRows.length === 0) {
    if (walk.remember) walk.quiet?.remember(pid, reader);
    return;
  }
  let fdRows = sameLinks ? remembered.rows : makeFdRows(pid, walk);
  if (fdRows.length === 0 && otherRows.length === 0) {
    walk.memo?.set(pid, { bytes: batch.copy(), rows: fdRows, startedAtMs: null, walkId: walk.walkId });
    if (walk.remember) walk.quiet?.remember(pid, reader);
    return;
  }
  walk.quiet?.forget(pid);
  const facts = readProcessFacts(pid, { reader, exe });
  if (!facts) {
    walk.kinds?.forget(pid);
    walk.memo?.forget(pid);
    return; // exited since its walk
  }
  const { info, stackStart } = facts;
  if (sameLinks && remembered.startedAtMs === info.startedAtMs) {
    // Rows never sent (none) are not named by their walk: the receiver of a worker's answer has only those sent.
    out.groups.push({ pid, fdRows, fdRowsOfWalk: fdRows.length > 0 ? remembered.walkId : null, otherRows, info, stackStart });
    return;
  }
  if (remembered?.startedAtMs != null && remembered.startedAtMs !== info.startedAtMs) {
    // Another process on a reused pid: what was remembered of its fds' kinds was of the one before.
    walk.kinds?.forget(pid);
    fdRows = makeFdRows(pid, walk);
  }
  walk.memo?.set(pid, { bytes: batch.copy(), rows: fdRows, startedAtMs: info.startedAtMs, walkId: walk.walkId });
  out.groups.push({ pid, fdRows, fdRowsOfWalk: null, otherRows, info, stackStart });
}

/** The rows of the links in `batch`, with each fd's kind and access mode (remembered per fd and target). */
function makeFdRows(pid: number, walk: Walk): RawHolding[] {
  const rows: RawHolding[] = [];
  const { kinds } = walk;
  const known = kinds?.of(pid);
  let seen: PidKinds | undefined;
  // Per held fd, so no closure, spread or object more than the row is made for one that is not deleted.
  batch.forEach((fd, target, read, targetAt, targetLength) => {
    const dir = dirOf(target, walk.dirs);
    if (!dir) return;
    let path = target;
    let deleted = false;
    if (target.endsWith(DELETED_MARK)) ({ path, deleted } = resolveDeleted(target, () => statSync(`/proc/${pid}/fd/${fd}`).nlink === 0));
    let facts = known?.get(fd);
    if (facts === undefined || facts.target !== target) {
      // The access mode is read with the kind, once per (fd, target): see fd-kind-cache.ts. Read with
      // the link when the reader did (null: the fd closed first), else here.
      const fresh = read !== undefined ? read : factsOfFd(`/proc/${pid}/fd/${fd}`);
      facts = fresh === null ? undefined : { target, dir: fresh.dir, flags: fresh.flags };
    }
    if (facts && kinds) (seen ??= new Map()).set(fd, facts);
    const kind = facts?.dir ? 'dir' : 'file';
    const handle = `fd ${fd}`;
    const openFlags = facts?.flags ?? null;
    const bytes = target.includes('\uFFFD') ? nonUtf8Bytes(batch.targetBytes(targetAt, targetLength), path !== target) : null;
    rows.push(
      bytes
        ? { pid, kind, path, pathBytesBase64: bytes, deleted, handle, watchedDir: dir.display, openFlags }
        : { pid, kind, path, deleted, handle, watchedDir: dir.display, openFlags },
    );
  });
  kinds?.remember(pid, seen);
  return rows;
}

/** A link target's bytes in base64 when they are not UTF-8 (a name may hold U+FFFD itself); the " (deleted)" mark cut off when `deleted`. */
function nonUtf8Bytes(target: Buffer | null, deleted: boolean): string | null {
  if (target === null) return null;
  const bytes = deleted ? target.subarray(0, target.length - DELETED_MARK_BYTES) : target;
  return isUtf8(bytes) ? null : bytes.toString('base64');
}

const DELETED_MARK = ' (deleted)';
const DELETED_MARK_BYTES = DELETED_MARK.length;

/** walkMaps, skipped for a process whose maps held nothing and whose address space has not moved since (maps-memo.ts). */
function walkMapsOnce(pid: number, exePath: string, walk: Walk, out: RawHolding[]): void {
  const { maps, reader } = walk;
  const signature = maps ? maps.signature(pid, reader) : null;
  if (maps && signature !== null && !walk.rereadMaps && maps.emptyAt(pid, signature)) return;
  const before = out.length;
  walkMaps(pid, walk.dirs, exePath, reader, out);
  maps?.readWith(pid, signature, out.length === before);
}

/** One `mmap` row per mapped path per process; the executable's own mapping is the `exe` row. */
function walkMaps(pid: number, dirs: readonly MatchDir[], exePath: string, reader: ProcReader, out: RawHolding[]): void {
  const length = reader.readFile(`/proc/${pid}/maps`, mapsBuffer);
  if (length === null) return;
  // Most processes map nothing under the dirs: look for the bytes before making a string of them.
  const bytes = mapsBuffer.bytes.subarray(0, length);
  // (A prefix with U+FFFD came from undecodable bytes: only the decoded text can be searched for it.)
  if (!dirs.some((d) => d.matchPrefix.includes('\uFFFD') || bytes.includes(d.matchPrefix))) return;
  const text = bytes.toString('utf8');
  if (!dirs.some((d) => text.includes(d.matchPrefix))) return;
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const mapping = parseMapsLine(lines[i]!);
    if (!mapping || seen.has(mapping.target)) continue;
    seen.add(mapping.target);
    const dir = dirOf(mapping.target, dirs);
    if (!dir) continue;
    const { path, deleted } = resolveDeleted(mapping.target, () => inodeOf(splitDeletedSuffix(mapping.target).path) !== mapping.inode);
    if (path === exePath) continue;
    const raw = mapping.target.includes('\uFFFD') ? nonUtf8Bytes(mapsLineTarget(bytes, i), path !== mapping.target) : null;
    out.push({ pid, kind: 'mmap', path, ...(raw ? { pathBytesBase64: raw } : {}), deleted, handle: null, watchedDir: dir.display, openFlags: null });
  }
}

/**
 * The bytes of the path of line `index` of a maps file: lines are cut at the same newlines in its bytes
 * as in its text, and the columns before the path are ASCII.
 */
function mapsLineTarget(maps: Buffer, index: number): Buffer {
  let start = 0;
  for (let i = 0; i < index; i++) start = maps.indexOf(0x0a, start) + 1;
  const end = maps.indexOf(0x0a, start);
  const line = maps.subarray(start, end < 0 ? maps.length : end);
  return line.subarray(line.indexOf(0x2f));
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

/** The fd's kind and access mode with Node's fs; null when it closed before it could be statted. */
function factsOfFd(fdPath: string): LinkFacts | null {
  const dir = isDirectoryFd(fdPath);
  return dir === null ? null : { dir, flags: accessModeOfLink(fdPath) };
}

/** The access mode from the link's own mode (openFlagsOfLinkMode); null when the fd closed. */
function accessModeOfLink(fdPath: string): number | null {
  const mode = lstatSync(fdPath, { throwIfNoEntry: false })?.mode;
  return mode === undefined ? null : openFlagsOfLinkMode(mode);
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

// A process's fd links, read two ways with one result. Node's fs costs a readdirSync and a
// readlinkSync per fd, and each readlinkSync makes a string of a target that is almost never under
// the watched dirs (bench/ prints how far that is from the C floor). libc through koffi reads the fd dir with
// getdents64 into one buffer and each link with readlinkat relative to the open dir (the kernel
// walks one path component, not four), and keeps a target's bytes (link-batch.ts) only when they
// start like a watched dir's; for a one-shot walk it also statx-es each matching fd relative to the
// open dir. Node's fs serves where koffi cannot be had (proc-reader.ts chooses).
import { readdirSync, readlinkSync } from 'node:fs';
import { ENOENT, ESRCH, errnoError, O_RDONLY_DIRECTORY_CLOEXEC, type Libc } from './libc.js';
import type { LinkBatch, LinkFacts } from './link-batch.js';
import { isGoneError } from './proc-errors.js';

/** The watched dirs' match prefixes, as text and as UTF-8 bytes; null lets every absolute target through. */
export type LinkPrefixes = { text: readonly string[]; bytes: readonly Buffer[] } | null;

/**
 * Prefixes that can be compared before decoding; null when one holds U+FFFD (it came from
 * undecodable bytes, so only the decoded target can be compared with it).
 */
export function linkPrefixes(matchPrefixes: readonly string[]): LinkPrefixes {
  if (matchPrefixes.some((p) => p.includes('\uFFFD'))) return null;
  return { text: matchPrefixes, bytes: matchPrefixes.map((p) => Buffer.from(p, 'utf8')) };
}

export interface FdLinkReader {
  readonly name: 'node' | 'libc';
  /**
   * Puts into `batch` (cleared first) each fd of `pid` whose target is a path starting with one of
   * `prefixes` (the caller still matches it on a separator boundary), and returns how many fds the
   * process has. Throws Node-shaped errors (`code` ENOENT/ESRCH when it exited, EACCES/EPERM when
   * denied); an fd closed between the listing and its readlink is skipped. With `withFacts`, a reader
   * that can stat an fd cheaply beside its readlink puts each link's facts in `batch.facts`.
   */
  read(pid: number, prefixes: LinkPrefixes, batch: LinkBatch, withFacts?: boolean): number;
}

const O_PATH = 0o10000000;

/**
 * The fd's access mode as open(2) flags (O_RDONLY, O_WRONLY, O_RDWR; O_PATH when neither), from the
 * mode of its /proc/<pid>/fd link: the kernel sets the link's owner r and w bits from the open file's
 * FMODE_READ and FMODE_WRITE (fs/proc/fd.c). One lstat, where fdinfo costs an open, a read and a close
 * per fd, a large share of a cold scan. The full flags are read for the details panel.
 */
export function openFlagsOfLinkMode(mode: number): number {
  const read = (mode & 0o400) !== 0;
  const write = (mode & 0o200) !== 0;
  return read && write ? 2 : write ? 1 : read ? 0 : O_PATH;
}

const SLASH = 47;
const DOT = 46;

export const nodeFdLinks: FdLinkReader = {
  name: 'node',
  read(pid, prefixes, batch) {
    batch.clear();
    const dir = `/proc/${pid}/fd/`;
    const fds = readdirSync(dir);
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(dir + fd);
      } catch (error) {
        if (isGoneError(error)) continue;
        throw error;
      }
      if (target.charCodeAt(0) !== SLASH) continue; // socket:[..], pipe:[..], anon_inode:..
      if (prefixes !== null && !prefixes.text.some((p) => target.startsWith(p))) continue;
      // U+FFFD stands for bytes that are not UTF-8: the batch keeps the bytes, which name the file.
      if (target.includes('\uFFFD')) addBytes(batch, fd, readLinkBytes(dir + fd));
      else batch.addText(fd, target);
    }
    return fds.length;
  },
};

/** A link's target as bytes (a name that is not UTF-8 is read again this way); null once it is gone. */
export function readLinkBytes(path: string): Buffer | null {
  try {
    return readlinkSync(path, { encoding: 'buffer' });
  } catch (error) {
    if (isGoneError(error)) return null;
    throw error;
  }
}

function addBytes(batch: LinkBatch, fd: string, target: Buffer | null): void {
  if (target) batch.add(Buffer.from(fd, 'latin1'), fd.length, target, target.length);
}

// struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16 at 16, d_type u8 at 18, d_name at 19.
const RECLEN_AT = 16;
const NAME_AT = 19;
// The longest record getdents64 can give for an fd name (19 + 10 digits + NUL, 8-aligned) and then
// some: a listing that leaves more room than this unused has ended (procfs fills the buffer while
// fds remain), so the call that would return 0 is not made.
const ROOM_FOR_ONE_MORE = 64;

// statx(2): the type and the permission bits share stx_mode, a u16 at offset 28 on every arch.
const STATX = { TYPE: 0x1, MODE: 0x2, MODE_AT: 28, SYMLINK_NOFOLLOW: 0x100 } as const;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

export class LibcFdLinks implements FdLinkReader {
  readonly name = 'libc';
  // One of each per thread, reused for every process: the listing, one name, one target at a time.
  private readonly entries = Buffer.alloc(64 * 1024);
  private readonly fdName = Buffer.alloc(16);
  private readonly target = Buffer.alloc(4096);
  private readonly statx = Buffer.alloc(256);

  constructor(private readonly libc: Libc) {}

  read(pid: number, prefixes: LinkPrefixes, batch: LinkBatch, withFacts = false): number {
    batch.clear();
    const { libc, entries, fdName, target } = this;
    const path = `/proc/${pid}/fd`;
    const dirFd = libc.open(path, O_RDONLY_DIRECTORY_CLOEXEC) as number;
    if (dirFd < 0) throw errnoError(libc.errno(), 'open', path);
    let count = 0;
    try {
      for (;;) {
        const filled = Number(libc.getdents64(dirFd, entries, entries.length));
        if (filled === 0) break;
        if (filled < 0) throw errnoError(libc.errno(), 'getdents64', path);
        for (let at = 0; at < filled; at += u16At(entries, at + RECLEN_AT)) {
          const nameAt = at + NAME_AT;
          if (entries[nameAt] === DOT) continue; // . and ..
          count++;
          // The name is copied into a buffer of its own: a subarray per fd cost more than the copy.
          let nameLength = 0;
          for (let b = entries[nameAt]!; b !== 0; b = entries[nameAt + nameLength]!) fdName[nameLength++] = b;
          fdName[nameLength] = 0;
          const length = Number(libc.readlinkat(dirFd, fdName, target, target.length));
          if (length < 0) {
            const errno = libc.errno();
            if (errno === ENOENT || errno === ESRCH) continue; // closed between the listing and the readlink
            throw errnoError(errno, 'readlinkat', path);
          }
          if (target[0] !== SLASH) continue; // socket:[..], pipe:[..], anon_inode:..
          const matched = prefixes === null ? 0 : matchedPrefixLength(target, length, prefixes.bytes);
          if (matched < 0) continue;
          batch.add(fdName, nameLength, target, length);
          // Statted only under a dir (not "<dir>-other/..."); the rest get null facts and no rows.
          const under = prefixes === null || length === matched || target[matched] === SLASH;
          if (withFacts) batch.facts.push(under ? this.factsAt(dirFd, fdName) : null);
        }
        if (filled < entries.length - ROOM_FOR_ONE_MORE) break;
      }
    } finally {
      libc.close(dirFd);
    }
    return count;
  }

  /**
   * The kind and access mode of the fd named `fdName` in the open fd dir: two statx calls relative to
   * it, where Node's stat and lstat each walk /proc/<pid>/fd/<n> from the root and build a Stats object.
   */
  private factsAt(dirFd: number, fdName: Buffer): LinkFacts | null {
    const { libc, statx } = this;
    if ((libc.statx(dirFd, fdName, 0, STATX.TYPE, statx) as number) !== 0) return null; // closed since its readlink
    const dir = (u16At(statx, STATX.MODE_AT) & S_IFMT) === S_IFDIR;
    if ((libc.statx(dirFd, fdName, STATX.SYMLINK_NOFOLLOW, STATX.MODE, statx) as number) !== 0) return { dir, flags: null };
    return { dir, flags: openFlagsOfLinkMode(u16At(statx, STATX.MODE_AT)) };
  }
}

/**
 * The little-endian u16 at `at` (the kernel's structs on the arches koffi's builds serve), read by index:
 * Buffer.readUInt16LE validates its offset through a call of its own, once per fd in the walk's loops.
 */
function u16At(bytes: Buffer, at: number): number {
  return bytes[at]! | (bytes[at + 1]! << 8);
}

/** The length of the first prefix `target` starts with, or -1. A byte loop: most targets differ within a few bytes, sooner than a Buffer.compare call returns. */
function matchedPrefixLength(target: Buffer, length: number, prefixes: readonly Buffer[]): number {
  for (const prefix of prefixes) {
    if (length < prefix.length) continue;
    let i = 1; // both start with '/'
    while (i < prefix.length && target[i] === prefix[i]) i++;
    if (i === prefix.length) return i;
  }
  return -1;
}

// A process's fd links, read two ways with one result. Node's fs costs a readdirSync and a
// readlinkSync per fd, and each readlinkSync makes a string of a target that is almost never under
// the watched dirs: measured on 2,250 links (40 processes holding 2,000 files), Node's walk of
// /proc/*/fd took 16.7 ms where the C floor took 9.4 ms. libc through koffi reads the fd dir with
// getdents64 into one buffer and each link with readlinkat relative to the open dir (the kernel
// walks one path component, not four), and a target becomes a string only when its bytes start like
// a watched dir's: 10.0 ms, the floor's 1.06x. Loading koffi costs ~20 ms once, more than a one-shot
// walk saves, so a walker switches to libc on its second walk (fd-walk.ts): `scan` never pays it,
// a poller pays it once.
import type { KoffiFunction } from '../koffi-loader.js';
import { loadKoffi } from '../koffi-loader.js';
import { readdirSync, readlinkSync } from 'node:fs';
import { isGoneError } from './proc-stat.js';

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
   * Calls `onLink` for each fd of `pid` whose target is a path starting with one of `prefixes` (the
   * caller still matches it on a separator boundary), and returns how many fds the process has.
   * Throws Node-shaped errors (`code` ENOENT/ESRCH when it exited, EACCES/EPERM when denied); an fd
   * closed between the listing and its readlink is skipped.
   */
  read(pid: number, prefixes: LinkPrefixes, onLink: (fd: string, target: string) => void): number;
}

const SLASH = 47;
const DOT = 46;

export const nodeFdLinks: FdLinkReader = {
  name: 'node',
  read(pid, prefixes, onLink) {
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
      if (prefixes === null || prefixes.text.some((p) => target.startsWith(p))) onLink(fd, target);
    }
    return fds.length;
  },
};

// Errno values of Linux (asm-generic): the ones the walk tells apart.
const ENOENT = 2;
const ESRCH = 3;
const ERRNO_CODES: Record<number, string> = { 1: 'EPERM', [ENOENT]: 'ENOENT', [ESRCH]: 'ESRCH', 13: 'EACCES' };
const O_RDONLY_DIRECTORY_CLOEXEC = 0o200000 | 0o2000000;
// struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16 at 16, d_type u8 at 18, d_name at 19.
const RECLEN_AT = 16;
const NAME_AT = 19;

interface Libc {
  open: KoffiFunction;
  close: KoffiFunction;
  getdents64: KoffiFunction;
  readlinkat: KoffiFunction;
  errno: () => number;
}

class LibcFdLinks implements FdLinkReader {
  readonly name = 'libc';
  // One of each per thread, reused for every process: the listing and one target at a time.
  private readonly entries = Buffer.alloc(64 * 1024);
  private readonly target = Buffer.alloc(4096);

  constructor(private readonly libc: Libc) {}

  read(pid: number, prefixes: LinkPrefixes, onLink: (fd: string, target: string) => void): number {
    const { libc, entries, target } = this;
    const dirFd = libc.open(`/proc/${pid}/fd`, O_RDONLY_DIRECTORY_CLOEXEC) as number;
    if (dirFd < 0) throw errnoError(libc.errno(), 'open', pid);
    let count = 0;
    try {
      for (;;) {
        const filled = Number(libc.getdents64(dirFd, entries, entries.length));
        if (filled === 0) break;
        if (filled < 0) throw errnoError(libc.errno(), 'getdents64', pid);
        for (let at = 0; at < filled; at += entries.readUInt16LE(at + RECLEN_AT)) {
          const nameAt = at + NAME_AT;
          if (entries[nameAt] === DOT) continue; // . and ..
          count++;
          const length = Number(libc.readlinkat(dirFd, entries.subarray(nameAt), target, target.length));
          if (length < 0) {
            const errno = libc.errno();
            if (errno === ENOENT || errno === ESRCH) continue; // closed between the listing and the readlink
            throw errnoError(errno, 'readlinkat', pid);
          }
          if (target[0] !== SLASH) continue; // socket:[..], pipe:[..], anon_inode:..
          if (prefixes !== null && !prefixes.bytes.some((p) => length >= p.length && target.compare(p, 0, p.length, 0, p.length) === 0)) continue;
          onLink(entries.toString('latin1', nameAt, entries.indexOf(0, nameAt)), target.toString('utf8', 0, length));
        }
      }
    } finally {
      libc.close(dirFd);
    }
    return count;
  }
}

function errnoError(errno: number, call: string, pid: number): NodeJS.ErrnoException {
  const code = ERRNO_CODES[errno] ?? `errno ${errno}`;
  return Object.assign(new Error(`${code}: ${call} /proc/${pid}/fd`), { code, errno: -errno, syscall: call });
}

let libcReader: FdLinkReader | null | undefined;

/** The libc reader of this thread, or null when koffi or the calls cannot be had here (then Node's fs serves). */
export function libcFdLinks(): FdLinkReader | null {
  if (libcReader !== undefined) return libcReader;
  try {
    const koffi = loadKoffi();
    const lib = koffi.load('libc.so.6');
    libcReader = new LibcFdLinks({
      open: lib.func('int open(const char *path, int flags)'),
      close: lib.func('int close(int fd)'),
      getdents64: lib.func('long getdents64(int fd, _Out_ uint8_t *entries, size_t size)'),
      readlinkat: lib.func('long readlinkat(int dirfd, const uint8_t *name, _Out_ uint8_t *target, size_t size)'),
      errno: () => koffi.errno(),
    });
  } catch {
    libcReader = null; // no koffi build for this machine, or a libc without getdents64 (glibc < 2.30, musl)
  }
  return libcReader;
}

// libc through koffi, for walks of /proc (a poller's and a one-shot's): each of Node's fs
// calls costs a binding, a request object and, on a failure, an Error with a stack (60 kernel threads
// have no exe: 60 throws a poll), where a libc call returns -1 and leaves errno. Bound once per thread, on first use; null
// where koffi or these symbols cannot be had (then Node's fs serves, proc-reader.ts). The inotify
// calls, which Node does not expose with IN_OPEN (fs.watch), are bound apart, for a watch's change feed.
import type { KoffiFunction } from '../koffi-loader.js';
import { loadKoffi } from '../koffi-loader.js';

export interface Libc {
  open: KoffiFunction;
  close: KoffiFunction;
  read: KoffiFunction;
  readlink: KoffiFunction;
  readlinkat: KoffiFunction;
  getdents64: KoffiFunction;
  statx: KoffiFunction;
  errno: () => number;
}

// Errno values of Linux (asm-generic): the ones a walk of /proc tells apart.
export const EPERM = 1;
export const ENOENT = 2;
export const ESRCH = 3;
export const EAGAIN = 11;
export const EACCES = 13;
// And the shortages that pass (core/errors.ts isPassingShortage): a watch retries them, by name.
const ERRNO_CODES: Record<number, string> = {
  [EPERM]: 'EPERM',
  [ENOENT]: 'ENOENT',
  [ESRCH]: 'ESRCH',
  [EACCES]: 'EACCES',
  11: 'EAGAIN',
  12: 'ENOMEM',
  23: 'ENFILE',
  24: 'EMFILE',
};

export const O_RDONLY_CLOEXEC = 0o2000000;
export const O_RDONLY_DIRECTORY_CLOEXEC = 0o200000 | 0o2000000;

/** A Node-shaped error (code ENOENT, ...), as the walk's callers expect from fs. */
export function errnoError(errno: number, call: string, path: string): NodeJS.ErrnoException {
  const code = ERRNO_CODES[errno] ?? `errno ${errno}`;
  return Object.assign(new Error(`${code}: ${call} ${path}`), { code, errno: -errno, syscall: call });
}

let libc: Libc | null | undefined;

export function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  try {
    const koffi = loadKoffi();
    const lib = koffi.load('libc.so.6');
    libc = {
      open: lib.func('int open(const char *path, int flags)'),
      close: lib.func('int close(int fd)'),
      read: lib.func('long read(int fd, _Out_ uint8_t *buffer, size_t size)'),
      readlink: lib.func('long readlink(const char *path, _Out_ uint8_t *target, size_t size)'),
      readlinkat: lib.func('long readlinkat(int dirfd, const uint8_t *name, _Out_ uint8_t *target, size_t size)'),
      getdents64: lib.func('long getdents64(int fd, _Out_ uint8_t *entries, size_t size)'),
      statx: lib.func('int statx(int dirfd, const char *path, int flags, unsigned int mask, _Out_ uint8_t *statx)'),
      errno: () => koffi.errno(),
    };
  } catch {
    libc = null; // no koffi build for this machine, or a libc without getdents64 (glibc < 2.30, musl)
  }
  return libc;
}

export interface InotifyCalls {
  /** int inotify_init1(int flags) */
  init1: KoffiFunction;
  /** int inotify_add_watch(int fd, const char *path, uint32_t mask): the watch's descriptor, or -1 */
  addWatch: KoffiFunction;
  /** int inotify_rm_watch(int fd, int wd) */
  rmWatch: KoffiFunction;
  read: KoffiFunction;
  close: KoffiFunction;
  errno: () => number;
}

let inotify: InotifyCalls | null | undefined;

export function loadInotifyCalls(): InotifyCalls | null {
  if (inotify !== undefined) return inotify;
  try {
    const koffi = loadKoffi();
    const lib = koffi.load('libc.so.6');
    inotify = {
      init1: lib.func('int inotify_init1(int flags)'),
      addWatch: lib.func('int inotify_add_watch(int fd, const char *path, uint32_t mask)'),
      rmWatch: lib.func('int inotify_rm_watch(int fd, int wd)'),
      read: lib.func('long read(int fd, _Out_ uint8_t *buffer, size_t size)'),
      close: lib.func('int close(int fd)'),
      errno: () => koffi.errno(),
    };
  } catch {
    inotify = null;
  }
  return inotify;
}

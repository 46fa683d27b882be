// How a walk reads /proc: fd links, the cwd/root/exe links and whole small files (maps, stat,
// cmdline). libc through koffi where it loads (procReaderForWalk), where each call costs a fraction of
// fs's and a process that is gone or denies a read is an errno, not a thrown Error; Node's fs otherwise.
import { closeSync, openSync, readlinkSync, readSync, statSync } from 'node:fs';
import { LibcFdLinks, nodeFdLinks, type FdLinkReader } from './fd-links.js';
import { EACCES, ENOENT, EPERM, ESRCH, errnoError, loadLibc, O_RDONLY_CLOEXEC, type Libc } from './libc.js';
import { isGoneError } from './proc-errors.js';

/** A buffer a reader fills from its start, grown to the largest file met. */
export class ReadBuffer {
  bytes: Buffer;

  constructor(initialSize = 256 * 1024) {
    this.bytes = Buffer.allocUnsafe(initialSize);
  }

  /** Room after `length`, doubling when full. */
  roomAfter(length: number): void {
    if (length < this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(this.bytes.length * 2);
    this.bytes.copy(bigger);
    this.bytes = bigger;
  }
}

export interface ProcReader {
  readonly name: 'node' | 'libc';
  readonly fdLinks: FdLinkReader;
  /** A link's target; null when the process is gone or denies it (kernel threads have no exe). */
  readLink(path: string): string | null;
  /** The whole file into `into`; its length, or null when the process is gone or denies it. */
  readFile(path: string, into: ReadBuffer): number | null;
  /**
   * The size of /proc/<pid>/fd: its number of open fds since Linux 6.2, 0 before (quiet-processes.ts
   * checks); null when the process is gone or denies it.
   */
  fdCount(pid: number): number | null;
}

const isGoneOrDenied = (code: string | undefined) => code === 'ENOENT' || code === 'ESRCH' || code === 'EACCES' || code === 'EPERM';

export const nodeProcReader: ProcReader = {
  name: 'node',
  fdLinks: nodeFdLinks,
  readLink(path) {
    try {
      return readlinkSync(path);
    } catch (error) {
      if (isGoneOrDenied((error as NodeJS.ErrnoException).code)) return null;
      throw error;
    }
  },
  readFile(path, into) {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (error) {
      if (isGoneError(error) || (error as NodeJS.ErrnoException).code === 'EACCES') return null;
      throw error;
    }
    try {
      let length = 0;
      for (;;) {
        into.roomAfter(length);
        const read = readSync(fd, into.bytes, length, into.bytes.length - length, null);
        if (read === 0) return length;
        length += read;
      }
    } catch (error) {
      // The process exited while its file was read (ESRCH), or denies it: nothing.
      if (isGoneError(error) || (error as NodeJS.ErrnoException).code === 'EACCES') return null;
      throw error;
    } finally {
      closeSync(fd);
    }
  },
  fdCount(pid) {
    try {
      return statSync(`/proc/${pid}/fd`).size;
    } catch (error) {
      if (isGoneOrDenied((error as NodeJS.ErrnoException).code)) return null;
      throw error;
    }
  },
};

const goneOrDenied = (errno: number) => errno === ENOENT || errno === ESRCH || errno === EACCES || errno === EPERM;

class LibcProcReader implements ProcReader {
  readonly name = 'libc';
  readonly fdLinks: FdLinkReader;
  private readonly target = Buffer.alloc(4096);
  private readonly statxBuffer = Buffer.alloc(256);

  constructor(private readonly libc: Libc) {
    this.fdLinks = new LibcFdLinks(libc);
  }

  readLink(path: string): string | null {
    const length = Number(this.libc.readlink(path, this.target, this.target.length));
    if (length >= 0) return this.target.toString('utf8', 0, length);
    const errno = this.libc.errno();
    if (goneOrDenied(errno)) return null;
    throw errnoError(errno, 'readlink', path);
  }

  readFile(path: string, into: ReadBuffer): number | null {
    const { libc } = this;
    const fd = libc.open(path, O_RDONLY_CLOEXEC) as number;
    if (fd < 0) {
      const errno = libc.errno();
      if (goneOrDenied(errno)) return null;
      throw errnoError(errno, 'open', path);
    }
    try {
      let length = 0;
      for (;;) {
        into.roomAfter(length);
        const read = Number(libc.read(fd, length === 0 ? into.bytes : into.bytes.subarray(length), into.bytes.length - length));
        if (read === 0) return length;
        if (read < 0) {
          const errno = libc.errno();
          if (goneOrDenied(errno)) return null;
          throw errnoError(errno, 'read', path);
        }
        length += read;
      }
    } finally {
      libc.close(fd);
    }
  }

  fdCount(pid: number): number | null {
    const path = `/proc/${pid}/fd`;
    if ((this.libc.statx(AT_FDCWD, path, 0, STATX_SIZE, this.statxBuffer) as number) === 0) return Number(this.statxBuffer.readBigUInt64LE(STATX_SIZE_OFFSET));
    const errno = this.libc.errno();
    if (goneOrDenied(errno)) return null;
    throw errnoError(errno, 'statx', path);
  }
}

// statx(2): the path relative to the cwd (absolute anyway); only stx_size asked for, at offset 40 on every arch.
const AT_FDCWD = -100;
const STATX_SIZE = 0x200;
const STATX_SIZE_OFFSET = 40;

let libcReader: ProcReader | null | undefined;

/** This thread's libc reader, or null when koffi or the calls cannot be had here. */
export function libcProcReader(): ProcReader | null {
  if (libcReader === undefined) {
    const libc = loadLibc();
    libcReader = libc ? new LibcProcReader(libc) : null;
  }
  return libcReader;
}

let walksOnThisThread = 0;

/**
 * How a walk reads: with libc when it loads (koffi's addon costs less to load than libc saves on one
 * walk of a few hundred processes), else with Node's fs. A thread's first walk (a one-shot scan's only
 * one) stats each matching fd as its link is read (`withFacts`), relative to the open fd dir; later
 * walks (a poller's) leave the stats to their kind cache.
 */
export function procReaderForWalk(): { reader: ProcReader; withFacts: boolean } {
  const libc = libcProcReader();
  if (!libc) return { reader: nodeProcReader, withFacts: false };
  return { reader: libc, withFacts: walksOnThisThread++ === 0 };
}

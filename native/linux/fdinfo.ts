// /proc/<pid>/fdinfo/<fd>: the open flags of one fd (`flags:`, octal f_flags) and the advisory
// locks held through it (`lock:` lines, as /proc/locks prints them). Read for the details panel
// only: a scan takes the access mode from the fd link's mode, one lstat instead of three calls.
import { closeSync, openSync, readSync } from 'node:fs';
import { isGoneError } from './proc-stat.js';

export interface FdInfo {
  /** f_flags; null when the line is missing. */
  flags: number | null;
  /** `FLOCK ADVISORY WRITE`, `POSIX ADVISORY READ 0-99`... */
  locks: string[];
}

// One buffer per thread: fdinfo is a few lines, but a file with many locks lists each.
const buffer = Buffer.allocUnsafe(16 * 1024);

/** The fd's info, or null when the fd closed or the process exited (or denies it). */
export function readFdInfo(pid: number, fd: string): FdInfo | null {
  let handle: number;
  try {
    handle = openSync(`/proc/${pid}/fdinfo/${fd}`, 'r');
  } catch (error) {
    if (fdGone(error)) return null;
    throw error;
  }
  try {
    const length = readSync(handle, buffer, 0, buffer.length, null);
    return parseFdInfo(buffer.toString('latin1', 0, length));
  } catch (error) {
    if (fdGone(error)) return null;
    throw error;
  } finally {
    closeSync(handle);
  }
}

/** The fd closed, the process exited, or it is not ours to read: no info, not an error. */
function fdGone(error: unknown): boolean {
  return isGoneError(error) || (error as NodeJS.ErrnoException).code === 'EACCES';
}

export function parseFdInfo(text: string): FdInfo {
  let flags: number | null = null;
  const locks: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('flags:')) {
      const value = line.slice(6).trim();
      if (/^[0-7]+$/.test(value)) flags = parseInt(value, 8);
    } else if (line.startsWith('lock:')) {
      const lock = describeLock(line.slice(5));
      if (lock) locks.push(lock);
    }
  }
  return { flags, locks };
}

/** `\t1: POSIX  ADVISORY  WRITE 1234 00:2a:99 0 EOF` -> `POSIX ADVISORY WRITE` (+ range unless whole file). */
function describeLock(text: string): string | null {
  const fields = text.trim().split(/\s+/);
  // [id:, class, mode, access, pid, dev:inode, start, end]; a blocked waiter has `->` before class.
  if (fields[1] === '->') return null;
  const [, kind, mode, access, , , start, end] = fields;
  if (!kind || !mode || !access) return null;
  const range = start === undefined || (start === '0' && end === 'EOF') ? '' : ` ${start}-${end ?? 'EOF'}`;
  return `${kind} ${mode} ${access}${range}`;
}

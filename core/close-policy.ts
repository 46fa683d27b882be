// Whether holdwatch may close one handle in another process for the user (Windows: DuplicateHandle
// with DUPLICATE_CLOSE_SOURCE). A handle value means nothing without its process, and the process
// reuses it for its next open once it is closed, so a close is refused unless the process is the one
// the user saw and the value still names the path the user saw. Pure: the facts in, a sentence out.
import type { HolderKind, ProcessInfo } from '../contract/holders.js';
import type { WatchDir } from '../contract/scan-worker.js';
import { refusalToEnd, type SelfFacts } from './end-policy.js';

/** Linux: closing another process's fd means injecting close() with ptrace (gdb), not offered. */
export const LINUX_CLOSE_REFUSAL =
  'closing a handle of another process is not offered on Linux: it needs ptrace to make the process call close() itself (gdb), which stops it mid-call and can corrupt it; end the process, or close the file in the code that opened it';

/** What a process may break into once a handle it still uses is closed under it. */
export const CLOSE_WARNING = 'the process may crash, or lose or corrupt data, the next time it uses that handle';

/** `0x1a4` (as scans print it) or `420`: a handle value, a non-zero multiple of 4; null otherwise. */
export function parseHandleValue(text: string): bigint | null {
  if (!/^(0x[0-9a-f]{1,16}|[1-9][0-9]{0,19})$/i.test(text)) return null;
  const value = BigInt(text);
  return value > 0n && value % 4n === 0n && value < 1n << 64n ? value : null;
}

/** Why holdwatch will not close any handle of this process (itself, a system or protected process), or null. */
export function refusalToCloseIn(info: Pick<ProcessInfo, 'pid' | 'ppid' | 'name'>, protection: string | null, self: SelfFacts): string | null {
  if (self.platform !== 'win32') return LINUX_CLOSE_REFUSAL;
  if (protection !== null) return `${info.name} is a protected process (${protection}): Windows lets no one close its handles, elevated or not`;
  return refusalToEnd(info, self);
}

/** One handle as the user saw it, with what the close is checked against. */
export interface HandleTarget {
  pid: number;
  /** The process as the user saw it (pid + start time). */
  startedAtMs: number;
  /** As scans print it: `0x1a4`. */
  handle: string;
  /** The watched dirs the handle must name a file under. */
  dirs: readonly WatchDir[];
  /** holdwatch's own pids: never touched. */
  ownPids: readonly number[];
}

/** Closes a handle while it names `expectedPath` (native/win32/close-handle.ts); throws BadInputError saying why not. */
export type HandleCloser = (target: HandleTarget, expectedPath: string) => Promise<void>;

/** What the handle names now: its path as scans show it and its kind; null when it names nothing under the watched dirs. */
export interface NamedHandle {
  path: string;
  kind: HolderKind;
}

/** The close's naming gave no answer (a loaded machine, a pipe that hangs): nothing is known of the handle, so nothing is closed. */
export function unconfirmedHandle(handle: string, pid: number, reason: string): string {
  return `handle ${handle} of process ${pid} could not be named (${reason}), so whether it still names the file seen is unknown: nothing closed; try again`;
}

/** Why this handle is not closed: it no longer names the path the user saw, or it is the process's current directory. */
export function refusalToCloseHandle(handle: string, pid: number, now: NamedHandle | null, expectedPath: string): string | null {
  if (now === null)
    return `handle ${handle} of process ${pid} no longer names a file under the watched dir (it was closed, or its value was reused): nothing closed`;
  // Windows paths compare case-insensitively; the user saw the scan's display form of the same name.
  if (now.path.toLowerCase() !== expectedPath.toLowerCase())
    return `handle ${handle} of process ${pid} now names ${now.path}, not ${expectedPath} (its value was reused): nothing closed`;
  if (now.kind === 'cwd')
    return `handle ${handle} is the current directory of process ${pid}: closing it would leave the process resolving relative paths through a dead handle; end the process instead`;
  if (now.kind !== 'file' && now.kind !== 'dir') return `a ${now.kind} is not an open handle that can be closed`;
  return null;
}

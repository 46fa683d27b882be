// Closes one handle in another process, Process Explorer's and `handle -c`'s way (DuplicateHandle with
// DUPLICATE_CLOSE_SOURCE), only while both halves of its identity hold:
//  - the process is the one the user saw: its creation time is read on the same process handle that
//    closes (a handle keeps its process object, so the pid cannot pass to another process meanwhile);
//  - the value still names the path the user saw: named afresh by the name worker (never a scan's
//    cached name: a closed value is reused by the process's next open), in the killable worker because
//    the name query can hang on a pipe the value may now be.
// Between that naming and the close lie milliseconds in which the process could close and reopen the
// value; that window is what is left, against the minutes a value sits in a listing before a click.
import { basename } from 'node:path/win32';
import { parseHandleValue, refusalToCloseHandle, refusalToCloseIn, unconfirmedHandle, type HandleTarget, type NamedHandle } from '../../core/close-policy.js';
import { BadInputError } from '../../core/errors.js';
import { sameProcessStart } from '../../core/same-process.js';
import { spellingsOf, underWatchedDir } from './dir-aliases.js';
import { classifyHandle } from './handle-kind.js';
import {
  closeHandle,
  closeRemoteHandle,
  openProcess,
  PROCESS_DUP_HANDLE,
  PROCESS_QUERY_LIMITED_INFORMATION,
  processCreationTime,
  processImageName,
} from './kernel32.js';
import { NameWorkerClient, type Deadlines, type NameOutcome } from './name-worker-client.js';
import { DosDevices, PathKeys } from './path-keys.js';
import { parentPid, protectionLevel } from './process-identities.js';
import { ProcessReader } from './process-reader.js';
import { protectionOf } from './protection.js';
import { ERROR_ACCESS_DENIED, Win32Error } from './win-errors.js';
import { fileTimeToUnixMs, type ProcessHandle, type RemoteHandleValue } from './win-types.js';

/**
 * The name worker's deadlines for a close. A scan's (200 ms a query, 8 s a scan) are for thousands of
 * handles; a close names one, which the user asked for, and on a loaded machine or under Wine its answer
 * can come after a scan would have given up. A pipe that hangs costs this wait once.
 */
export const CLOSE_NAMING_DEADLINES: Deadlines = { perQueryMs: 30_000, workerQueryMs: 20_000, totalMs: 60_000, startupMs: 60_000 };

/** What the handle names now under `dirs`, or null; refuses (BadInputError) a process that may not be touched. */
export async function describeWin32Handle(target: HandleTarget): Promise<NamedHandle | null> {
  const value = handleValueOf(target.handle);
  const process = openChecked(target, PROCESS_QUERY_LIMITED_INFORMATION);
  try {
    refuseProcess(target, process);
    return await nameNow(target, process, value);
  } finally {
    closeHandle(process);
  }
}

/** Closes the handle while it names `expectedPath` in the process the user saw; throws BadInputError saying why not. */
export async function closeWin32Handle(target: HandleTarget, expectedPath: string): Promise<void> {
  const value = handleValueOf(target.handle);
  // Protection first, on a handle even a protected process grants: it refuses DUP_HANDLE to everyone,
  // and "access denied, run as administrator" would be a promise elevation cannot keep.
  const query = openChecked(target, PROCESS_QUERY_LIMITED_INFORMATION);
  try {
    refuseProcess(target, query);
  } finally {
    closeHandle(query);
  }
  const owner = openChecked(target, PROCESS_DUP_HANDLE | PROCESS_QUERY_LIMITED_INFORMATION);
  try {
    const refusal = refusalToCloseHandle(target.handle, target.pid, await nameNow(target, owner, value), expectedPath);
    if (refusal !== null) throw new BadInputError(refusal);
    closeRemoteHandle(owner, value);
  } finally {
    closeHandle(owner);
  }
}

function handleValueOf(text: string): RemoteHandleValue {
  const value = parseHandleValue(text);
  if (value === null) throw new BadInputError(`${JSON.stringify(text)} is not a handle value (a scan prints them as 0x1a4)`);
  return value as RemoteHandleValue;
}

/** The process opened with `rights`, or BadInputError: gone, not the one seen, or not ours to open. */
function openChecked(target: HandleTarget, rights: number): ProcessHandle {
  let process: ProcessHandle;
  try {
    process = openProcess(target.pid, rights);
  } catch (error) {
    if (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED)
      throw new BadInputError(
        `not allowed to close handles of process ${target.pid} (another user's, or an elevated process): scan as administrator in the app, or run holdwatch close from an elevated prompt`,
      );
    throw new BadInputError(`process ${target.pid} has already exited`);
  }
  try {
    if (!sameProcessStart(target.startedAtMs, fileTimeToUnixMs(processCreationTime(process)), 'win32'))
      throw new BadInputError(`process ${target.pid} has already exited (its pid now belongs to another process): nothing closed`);
    return process;
  } catch (error) {
    closeHandle(process);
    throw error;
  }
}

function refuseProcess(target: HandleTarget, process: ProcessHandle): void {
  let image = '';
  try {
    image = basename(processImageName(process));
  } catch {
    // System and minimal processes have no image path; pid 4 is known by number.
  }
  const name = image || `process ${target.pid}`;
  const refusal = refusalToCloseIn({ pid: target.pid, ppid: parentPid(process), name }, protectionOf(protectionLevel(process), target.pid, image), {
    ownPids: target.ownPids,
    platform: 'win32',
  });
  if (refusal !== null) throw new BadInputError(`holdwatch will not close a handle of process ${target.pid}: ${refusal}`);
}

/** Names the value now, through a name worker of its own (disposed here), as a scan would show it. */
async function nameNow(target: HandleTarget, process: ProcessHandle, value: RemoteHandleValue): Promise<NamedHandle | null> {
  const createTime = processCreationTime(process);
  const worker = new NameWorkerClient(CLOSE_NAMING_DEADLINES);
  let outcome;
  try {
    [outcome] = await worker.nameAll([{ pid: target.pid, handle: String(value) }], [{ pid: target.pid, createTime: String(createTime) }]);
  } finally {
    worker.dispose();
  }
  const answer = answerForClose(target, outcome);
  if (answer === null) return null;
  const keys = new PathKeys(new DosDevices());
  keys.begin();
  const named = keys.keyOf(answer.name);
  for (const dir of target.dirs) {
    const path = underWatchedDir(
      named,
      spellingsOf(dir, (name) => keys.keyOf(name)),
    );
    if (path === null) continue;
    return { path, kind: classifyHandle(answer.directory, () => isCurrentDirectory(target.pid, createTime, value)) };
  }
  return null;
}

/**
 * The worker's answer with a name, or null when the value names nothing now (closed: DuplicateHandle
 * fails). No answer at all says nothing of the handle, so it refuses as unconfirmed, never as closed.
 */
export function answerForClose(target: HandleTarget, outcome: NameOutcome | undefined): { name: string; directory: boolean } | null {
  if (outcome === undefined || outcome.kind === 'unnamed')
    throw new BadInputError(unconfirmedHandle(target.handle, target.pid, outcome?.reason ?? 'no answer'));
  const { name, directory } = outcome.answer;
  return name === null ? null : { name, directory };
}

/** The PEB's CurrentDirectory.Handle: that directory handle is the process's cwd. */
function isCurrentDirectory(pid: number, createTime: bigint, value: RemoteHandleValue): boolean {
  const reader = new ProcessReader();
  try {
    return reader.parameters(pid, createTime).currentDirectoryHandle === value;
  } catch {
    return true; // unknown: treated as the cwd, the refused case
  } finally {
    reader.dispose();
  }
}

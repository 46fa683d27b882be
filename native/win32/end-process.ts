// Ends `pid` only while it is the process created at `startedAtMs`, through one process handle: the
// handle is opened, its creation time checked, and the same handle terminated, so no other process can
// take the pid in between (a handle keeps its process object, pid included, until it is closed).
import { sameProcessStart } from '../../core/same-process.js';
import { closeHandle, openProcess, PROCESS_QUERY_LIMITED_INFORMATION, processCreationTime, processExited, SYNCHRONIZE, terminateProcess } from './kernel32.js';
import { fileTimeToUnixMs } from './win-types.js';

const PROCESS_TERMINATE = 0x0001;

export function endWin32ProcessIfSame(pid: number, startedAtMs: number): 'ended' | 'gone' {
  let handle;
  try {
    handle = openProcess(pid, PROCESS_TERMINATE | PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE);
  } catch {
    return 'gone'; // exited, or not ours to end: either way not signalled
  }
  try {
    if (!sameProcessStart(startedAtMs, fileTimeToUnixMs(processCreationTime(handle)), 'win32')) return 'gone';
    // An exited process stays openable while anyone holds a handle to it (its parent, usually).
    if (processExited(handle)) return 'gone';
    terminateProcess(handle, 1);
    return 'ended';
  } finally {
    closeHandle(handle);
  }
}

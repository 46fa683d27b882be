// The File handles of only the processes a run is about (its test tree), for the focus scans between
// full ones. Each process's own table (NtQueryInformationProcess class 51) is far cheaper than the
// system table, but class 51 needs PROCESS_QUERY_INFORMATION (QUERY_LIMITED is not enough: the query
// is refused), and a process that refuses that right, or the query, is not denied to us: its handles
// are in the system table, as the full scans read them. Taking it as "denied" made the test tree's
// holders vanish at every focus scan and come back at the next full one (flapping every 100 ms).
// Pure decisions over injected calls, so the paths Wine never takes are tested with fixtures.
import type { HandleEntry } from './handle-table.js';
import { ERROR_ACCESS_DENIED, NtStatusError, STATUS_ACCESS_DENIED, Win32Error } from './win-errors.js';

const PROCESS_QUERY_INFORMATION = 0x0400;
const STATUS_PROCESS_IS_TERMINATING = 0xc000010a;
const PROCESS_DUP_HANDLE = 0x0040;

/** The rights a focus scan opens each process with: class 51 needs QUERY_INFORMATION; naming needs DUP_HANDLE. */
export const FOCUS_SCAN_RIGHTS = PROCESS_QUERY_INFORMATION | PROCESS_DUP_HANDLE;

export interface FocusedHandleCalls<Process> {
  /** OpenProcess(pid, rights); throws Win32Error. */
  open(pid: number, rights: number): Process;
  /** The process's own File handles; null when the OS lacks class 51; throws NtStatusError. */
  ownFileHandles(process: Process, pid: number): HandleEntry[] | null;
  /** Every process's File handles (the system table). */
  systemFileHandles(): HandleEntry[];
  close(process: Process): void;
}

/**
 * The File handles of `wanted`: each process's own table where it answers, the system table for the
 * rest (read once). `deny` is called only for what the system table cannot help with.
 */
export function focusedFileHandles<Process>(
  wanted: ReadonlySet<number>,
  calls: FocusedHandleCalls<Process>,
  deny: (pid: number, reason: string) => void,
): HandleEntry[] {
  const entries: HandleEntry[] = [];
  const fromSystemTable = new Set<number>();
  for (const pid of wanted) {
    let process: Process;
    try {
      process = calls.open(pid, FOCUS_SCAN_RIGHTS);
    } catch (error) {
      if (isAccessDenied(error)) fromSystemTable.add(pid);
      continue; // ERROR_INVALID_PARAMETER: gone
    }
    try {
      const own = calls.ownFileHandles(process, pid);
      if (own === null) return calls.systemFileHandles().filter((e) => wanted.has(e.pid)); // no class 51 here
      entries.push(...own);
    } catch (error) {
      if (isAccessDenied(error)) fromSystemTable.add(pid);
      // An exiting process is as good as gone: "denied" would flash in for one scan.
      else if (!(error instanceof NtStatusError && error.status === STATUS_PROCESS_IS_TERMINATING)) deny(pid, (error as Error).message);
    } finally {
      calls.close(process);
    }
  }
  if (fromSystemTable.size > 0) entries.push(...calls.systemFileHandles().filter((e) => fromSystemTable.has(e.pid)));
  return entries;
}

function isAccessDenied(error: unknown): boolean {
  return (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) || (error instanceof NtStatusError && error.status === STATUS_ACCESS_DENIED);
}

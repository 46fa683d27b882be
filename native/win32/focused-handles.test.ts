// Focus scans against the real Windows outcomes of OpenProcess and class 51 (the access-denied paths
// Wine never takes: Wine grants every right, and has no class 51 at all).
import { describe, expect, it } from 'vitest';
import type { HandleEntry } from './handle-table.js';
import { FOCUS_SCAN_RIGHTS, focusedFileHandles, type FocusedHandleCalls } from './focused-handles.js';
import { NtStatusError, STATUS_ACCESS_DENIED, Win32Error } from './win-errors.js';

const entry = (pid: number, handle: number): HandleEntry => ({ pid, object: 0n, handle: BigInt(handle), grantedAccess: 0x12019f, typeIndex: 37 });
const SYSTEM_TABLE = [entry(10, 4), entry(20, 8), entry(20, 12), entry(30, 16), entry(99, 20)];

type Outcome = 'own' | 'open-denied' | 'query-denied' | 'gone' | 'terminating' | 'query-failed';

function calls(outcomes: Record<number, Outcome>, { classSupported = true } = {}) {
  const log = { rights: [] as number[], systemReads: 0, closed: [] as number[] };
  const fake: FocusedHandleCalls<number> = {
    open(pid, rights) {
      log.rights.push(rights);
      // OpenProcess without the right: ERROR_ACCESS_DENIED; a pid gone: ERROR_INVALID_PARAMETER.
      if (outcomes[pid] === 'open-denied') throw new Win32Error('OpenProcess', 5);
      if (outcomes[pid] === 'gone') throw new Win32Error('OpenProcess', 87);
      return pid;
    },
    ownFileHandles(process, pid) {
      if (!classSupported) return null;
      if (outcomes[pid] === 'query-denied') throw new NtStatusError('NtQueryInformationProcess(ProcessHandleInformation)', STATUS_ACCESS_DENIED);
      // An exiting process: opened, but its handle table is being torn down.
      if (outcomes[pid] === 'terminating') throw new NtStatusError('NtQueryInformationProcess(ProcessHandleInformation)', 0xc000010a);
      if (outcomes[pid] === 'query-failed') throw new NtStatusError('NtQueryInformationProcess(ProcessHandleInformation)', 0xc000000d);
      return SYSTEM_TABLE.filter((e) => e.pid === process);
    },
    systemFileHandles() {
      log.systemReads++;
      return SYSTEM_TABLE;
    },
    close(process) {
      log.closed.push(process);
    },
  };
  return { fake, log };
}

describe('focusedFileHandles', () => {
  it('opens each process with PROCESS_QUERY_INFORMATION | PROCESS_DUP_HANDLE (class 51 refuses QUERY_LIMITED)', () => {
    const { fake, log } = calls({ 10: 'own' });
    focusedFileHandles(new Set([10]), fake, () => {});
    expect(log.rights).toEqual([0x0440]);
    expect(FOCUS_SCAN_RIGHTS & 0x0400).toBe(0x0400);
  });

  it('a process that refuses the right, or the query, is read from the system table, not denied', () => {
    const { fake, log } = calls({ 10: 'own', 20: 'open-denied', 30: 'query-denied' });
    const denied: number[] = [];
    const entries = focusedFileHandles(new Set([10, 20, 30]), fake, (pid) => denied.push(pid));
    expect(entries.map((e) => [e.pid, Number(e.handle)])).toEqual([
      [10, 4],
      [20, 8],
      [20, 12],
      [30, 16],
    ]);
    expect(denied).toEqual([]);
    expect(log.systemReads).toBe(1); // once, for both
    expect(log.closed).toEqual([10, 30]); // every process opened is closed
  });

  it('a process gone or exiting meanwhile is left out, not denied; another failure of the query is said', () => {
    const { fake } = calls({ 10: 'gone', 20: 'terminating', 30: 'query-failed' });
    const denied: [number, string][] = [];
    expect(focusedFileHandles(new Set([10, 20, 30]), fake, (pid, reason) => denied.push([pid, reason]))).toEqual([]);
    expect(denied).toEqual([[30, expect.stringContaining('0xC000000D STATUS_INVALID_PARAMETER')]]);
  });

  it('where the OS has no class 51 (Windows 7, Wine), the system table is filtered to the wanted pids', () => {
    const { fake } = calls({ 10: 'own', 20: 'own' }, { classSupported: false });
    expect(focusedFileHandles(new Set([10, 20]), fake, () => {}).map((e) => e.pid)).toEqual([10, 20, 20]);
  });
});

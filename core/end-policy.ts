// Whether holdwatch may end a process for the user. Ending a system process can take the machine
// down, and ending holdwatch (or the app's own host) leaves the user with nothing: both are refused.
import type { PlatformName, ProcessInfo } from '../contract/holders.js';

/** Processes Windows needs to stay up (ending csrss.exe bluescreens the machine). */
const WINDOWS_SYSTEM = new Set([
  'system',
  'idle',
  'registry',
  'smss.exe',
  'csrss.exe',
  'wininit.exe',
  'services.exe',
  'lsass.exe',
  'winlogon.exe',
  'svchost.exe',
  'fontdrvhost.exe',
  'dwm.exe',
  'memory compression',
]);

export interface SelfFacts {
  /** holdwatch's own pids: the host process, and its worker(s). */
  ownPids: readonly number[];
  platform: PlatformName;
}

/** A sentence saying why not, or null when the process may be ended. */
export function refusalToEnd(info: Pick<ProcessInfo, 'pid' | 'ppid' | 'name'>, self: SelfFacts): string | null {
  if (self.ownPids.includes(info.pid)) return 'this is holdwatch itself';
  if (self.platform === 'win32') {
    if (info.pid <= 4 || WINDOWS_SYSTEM.has(info.name.toLowerCase())) return `${info.name} is a Windows system process`;
    return null;
  }
  // PID 1 is init; PID 2 (kthreadd) and its children are kernel threads.
  if (info.pid === 1) return 'PID 1 is the init process';
  if (info.pid === 2 || info.ppid === 2) return `${info.name} is a kernel thread`;
  return null;
}

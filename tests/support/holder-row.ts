// A holder row as a backend would return it, for the core's unit tests: pid and path, the rest plain.
import type { Holder } from '../../contract/holders.js';

export function holderRow(pid: number, path: string, over: Partial<Holder> = {}): Holder {
  return {
    pid,
    ppid: 1,
    processStartedAtMs: 1000,
    processName: 'p',
    commandLine: 'p',
    user: 'u',
    kind: 'file',
    path,
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
    ...over,
  };
}

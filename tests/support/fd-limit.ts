// A running process's soft RLIMIT_NOFILE, read and set from outside (prlimit --pid, same user or root).
// Set below the fds a process already has, its next open fails with EMFILE, as when a flood of
// connections fills its fd table; set back, opens work again. The hard limit is left alone.
import { execFileSync } from 'node:child_process';

export function softFdLimitOf(pid: number): string {
  return execFileSync('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output=SOFT'])
    .toString()
    .trim();
}

export function setSoftFdLimit(pid: number, soft: string): void {
  execFileSync('prlimit', ['--pid', String(pid), `--nofile=${soft}:`]);
}

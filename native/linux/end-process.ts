// SIGTERM to `pid` only while it is the process that started at `startedAtMs` (core/same-process.ts).
// Linux offers no way through Node to signal a process by a handle (pidfd), so the check and the
// signal are two steps; between them lie microseconds, against the minutes a pid takes to come round.
import { sameProcessStart } from '../../core/same-process.js';
import { readStat } from './proc-stat.js';

export function endLinuxProcessIfSame(pid: number, startedAtMs: number): 'ended' | 'gone' {
  let started: number;
  try {
    started = readStat(pid).startedAtMs;
  } catch {
    return 'gone';
  }
  if (!sameProcessStart(startedAtMs, started, 'linux')) return 'gone';
  try {
    process.kill(pid, 'SIGTERM');
    return 'ended';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
    throw error;
  }
}

// Which processes started or ended since the last look, for the price of one small read while none
// did. /proc/loadavg ends with "<running>/<tasks> <last pid>": the last pid given out (in this pid
// namespace) moves with every process or thread created, the task count with every one reaped, so
// while both stay put no process started or ended and /proc is not listed. (A process that exited but
// is not reaped yet holds no fds any more: the watch's full scans see it go.)
import { readFileSync } from 'node:fs';
import { listPids } from './pid-list.js';

export class ProcessListChanges {
  private marker: string;
  private pids: Set<number>;

  constructor(private readonly readLoadavg: () => string = () => readFileSync('/proc/loadavg', 'latin1')) {
    this.marker = this.readMarker();
    this.pids = new Set(listPids());
  }

  /** The pids that appeared in /proc or left it since the last call (or since construction). */
  take(): { started: number[]; ended: number[] } {
    const marker = this.readMarker();
    if (marker === this.marker) return { started: [], ended: [] };
    this.marker = marker;
    const now = new Set(listPids());
    const started: number[] = [];
    const ended: number[] = [];
    for (const pid of now) if (!this.pids.has(pid)) started.push(pid);
    for (const pid of this.pids) if (!now.has(pid)) ended.push(pid);
    this.pids = now;
    return { started, ended };
  }

  private readMarker(): string {
    return tasksMarker(this.readLoadavg());
  }
}

/** Of /proc/loadavg, "<tasks> <last pid>": the running count before them changes with every context switch. */
export function tasksMarker(loadavg: string): string {
  return loadavg.slice(loadavg.indexOf('/') + 1).trimEnd();
}

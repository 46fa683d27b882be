// ProcessSource for Linux: the tree from /proc/<pid>/stat, run tags from /proc/<pid>/environ.
import { readdirSync, readFileSync } from 'node:fs';
import type { ProcessInfo } from '../../contract/holders.js';
import type { ProcessBrief, ProcessSource } from '../../core/platform.js';
import { findVariable, readSettledEnviron } from './proc-environ.js';
import { isGoneError, readProcessInfo, readStat } from './proc-stat.js';
import { tasksMarker } from './process-list-changes.js';

/** With `fresh: false`, a listed pid's stat is re-read on every Nth call only (about once a second at 100 ms). */
const REUSE_CALLS = 10;

export class LinuxProcessSource implements ProcessSource {
  private known = new Map<number, ProcessBrief>();
  private callsSinceFresh = 0;
  /** /proc/loadavg's task count and last pid, read before the last listing. */
  private listedAtMarker: string | null = null;

  constructor(private readonly readLoadavg: () => string = () => readFileSync('/proc/loadavg', 'latin1')) {}

  async listProcesses(options: { fresh?: boolean } = {}): Promise<ProcessBrief[]> {
    // No task was created or reaped since the last listing (process-list-changes.ts): no pid is new or
    // reused and none left, so that listing is this one, for the price of one small read. A run's
    // 100 ms polls of a suite that starts nothing list /proc no more.
    const marker = tasksMarker(this.readLoadavg());
    if (options.fresh === false && marker === this.listedAtMarker) return [...this.known.values()];
    this.listedAtMarker = marker;
    // Reading every /proc/<pid>/stat ten times a second was the largest cost of following a run of
    // 200 processes. A pid is reused only after the kernel's counter wraps, so within a second the
    // cached brief of a pid still listed is, all but surely, the same process; callers that meet an
    // unknown identity ask for a fresh list.
    const reuse = options.fresh === false && ++this.callsSinceFresh < REUSE_CALLS;
    if (!reuse) this.callsSinceFresh = 0;
    const briefs = new Map<number, ProcessBrief>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      const cached = reuse ? this.known.get(pid) : undefined;
      if (cached) {
        briefs.set(pid, cached);
        continue;
      }
      try {
        const stat = readStat(pid);
        briefs.set(pid, { pid, ppid: stat.ppid, startedAtMs: stat.startedAtMs, name: stat.name });
      } catch (error) {
        if (!isGoneError(error)) throw error;
      }
    }
    this.known = briefs;
    return [...briefs.values()];
  }

  async processInfo(pid: number): Promise<ProcessInfo | null> {
    return readProcessInfo(pid);
  }

  async readEnvironmentVariable(pid: number, name: string): Promise<string | null> {
    const environ = await readSettledEnviron(pid);
    return environ === null ? null : findVariable(environ, name);
  }
}

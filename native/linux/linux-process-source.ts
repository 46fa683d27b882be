// ProcessSource for Linux: the tree from /proc/<pid>/stat, run tags from /proc/<pid>/environ.
import { readdirSync, readFileSync } from 'node:fs';
import type { ProcessInfo } from '../../core/api.js';
import type { ProcessBrief, ProcessSource } from '../../core/platform.js';
import { isGoneError, readProcessInfo, readStat } from './proc-stat.js';

export class LinuxProcessSource implements ProcessSource {
  async listProcesses(): Promise<ProcessBrief[]> {
    const briefs: ProcessBrief[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      try {
        const stat = readStat(pid);
        briefs.push({ pid, ppid: stat.ppid, startedAtMs: stat.startedAtMs, name: stat.name });
      } catch (error) {
        if (!isGoneError(error)) throw error;
      }
    }
    return briefs;
  }

  async processInfo(pid: number): Promise<ProcessInfo | null> {
    return readProcessInfo(pid);
  }

  async readEnvironmentVariable(pid: number, name: string): Promise<string | null> {
    let environ: string;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    } catch {
      return null; // gone, or another user's process
    }
    return findVariable(environ, name);
  }
}

/** /proc/<pid>/environ is the initial environment, NUL-separated `NAME=value` entries. */
export function findVariable(environ: string, name: string): string | null {
  const prefix = `${name}=`;
  for (const entry of environ.split('\0')) if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  return null;
}

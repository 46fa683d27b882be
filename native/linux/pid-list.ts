// The pids of /proc: one per process (thread group); threads are under /proc/<pid>/task.
import { readdirSync } from 'node:fs';

export function listPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) pids.push(Number(name));
  }
  return pids;
}

// A process's environment from /proc/<pid>/environ: the one it was exec'd with. Inside an exec the
// kernel drops the old image's environment before it lays out the new one, and for that moment the
// file reads empty, though the process has an environment before and after. A run's detached child
// met then (a `setsid bash bridge.sh` whose launcher has just exited) would be judged by the empty
// read: no run tag, a stranger for good.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { readStat } from './proc-stat.js';

/** Longer than any exec takes on a loaded machine; a read still empty then is taken as it is. */
const SETTLE_MS = 500;
const RETRY_MS = 2;

/** The environment, NUL-separated `NAME=value` entries; null when the process is gone or not ours to read. */
export async function readSettledEnviron(pid: number): Promise<string | null> {
  const deadline = Date.now() + SETTLE_MS;
  // Once its argv is there the exec has laid out its new image, or all but: one read more settles it.
  let argvSeen = false;
  for (;;) {
    const environ = readProcText(pid, 'environ');
    if (environ !== '' || argvSeen || Date.now() >= deadline || !mayBeInsideExec(pid)) return environ;
    argvSeen = readProcText(pid, 'cmdline') !== '';
    await sleep(RETRY_MS);
  }
}

/** The variable's value in an environ text, or null. */
export function findVariable(environ: string, name: string): string | null {
  const prefix = `${name}=`;
  for (const entry of environ.split('\0')) if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  return null;
}

/** A kernel thread and a process in its exit read empty for good; any other live process may be inside an exec. */
function mayBeInsideExec(pid: number): boolean {
  try {
    const stat = readStat(pid);
    return !stat.kernelThread && !stat.exiting;
  } catch {
    return false; // gone
  }
}

function readProcText(pid: number, file: 'environ' | 'cmdline'): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null; // gone, or another user's process
  }
}

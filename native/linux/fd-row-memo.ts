// What a poller's walking thread remembers of each process's fd rows: the bytes of its links under
// the watched dirs (link-batch.ts) and the rows made from them. When a process's links are byte for
// byte what they were, and it is the same process (start time), the walk hands back the same rows
// array: nothing decoded, statted or built, and HolderReuse and the watcher's diff see the process
// unchanged by identity. At 8,000 held fds that work was a third of a poll (`npm run bench`).
import { PidMemory } from './pid-memory.js';
import type { MatchDir, RawHolding } from './fd-walk.js';

export interface RememberedFdRows {
  bytes: Buffer;
  rows: readonly RawHolding[];
  /** The process's start; null when its links lay outside the dirs, so its facts were not read. */
  startedAtMs: number | null;
  /** The walk that made the rows: a worker's answer names it instead of sending them again. */
  walkId: number;
}

export class FdRowMemo extends PidMemory<RememberedFdRows> {
  private dirsKey = '';

  /** Rows name their watched dir: a walk over other dirs starts from nothing. */
  useDirs(dirs: readonly MatchDir[]): void {
    const key = dirs.map((d) => `${d.matchPrefix}\0${d.display}`).join('\0\0');
    if (key === this.dirsKey) return;
    this.dirsKey = key;
    this.byPid.clear();
  }

  get(pid: number): RememberedFdRows | undefined {
    return this.byPid.get(pid);
  }

  set(pid: number, remembered: RememberedFdRows): void {
    this.byPid.set(pid, remembered);
  }

  clear(): void {
    this.byPid.clear();
  }
}

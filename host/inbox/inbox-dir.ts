// holdwatch's inbox (<data dir>/inbox): where the probes announce runs holdwatch did not start
// (probes/holdwatch-announce.mjs, probes/python-runners). Probes write there only while it exists, so it
// exists only while a holdwatch listens: each listener leaves a `listener-<pid>` marker, and the last
// one out removes the folder.
import { readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { WatchDir } from '../../core/platform.js';
import { makePrivateDir, writePrivateFile } from '../private-files.js';
import { refuseInsideWatched } from '../watched-dirs.js';

/** `<writer pid>-<random>.jsonl`, as the probes name their announce files. */
export const ANNOUNCE_FILE = /^(\d+)-[0-9a-f]+\.jsonl$/;
const LISTENER_FILE = /^listener-(\d+)$/;

export class Inbox {
  private marker: string | null;

  private constructor(readonly path: string) {
    this.marker = join(path, `listener-${process.pid}`);
  }

  /** Creates the inbox and marks this holdwatch as listening; refuses an inbox inside a watched dir. */
  static open(dataDir: string, watched: readonly WatchDir[]): Inbox {
    const path = join(dataDir, 'inbox');
    refuseInsideWatched(path, watched, (w) => `the inbox ${path} is inside the watched directory ${w.display}; set HOLDWATCH_DATA_DIR elsewhere`);
    makePrivateDir(path, { holdwatchs: true });
    const inbox = new Inbox(path);
    if (!inbox.otherListeners()) inbox.removeOrphans();
    writePrivateFile(inbox.marker!, '');
    return inbox;
  }

  /** The announce files present now (names). */
  announceFiles(): string[] {
    return this.names().filter((n) => ANNOUNCE_FILE.test(n));
  }

  /** Stops listening: the marker goes, and the folder too when no other holdwatch listens and it is empty. */
  close(): void {
    if (this.marker === null) return;
    tryUnlink(this.marker);
    this.marker = null;
    if (this.otherListeners()) return;
    this.removeOrphans();
    try {
      rmdirSync(this.path);
    } catch {
      // a run still announcing (its probe keeps writing): the next holdwatch picks it up or clears it
    }
  }

  private otherListeners(): boolean {
    return this.names().some((n) => {
      const pid = Number(LISTENER_FILE.exec(n)?.[1] ?? 0);
      if (pid === process.pid || pid === 0) return false;
      if (isAlive(pid)) return true;
      tryUnlink(join(this.path, n)); // a listener that crashed
      return false;
    });
  }

  /** Announce files whose writer is gone and that no listener recorded: nothing ever will. */
  private removeOrphans(): void {
    for (const name of this.announceFiles()) {
      if (!isAlive(Number(ANNOUNCE_FILE.exec(name)![1]))) tryUnlink(join(this.path, name));
    }
  }

  private names(): string[] {
    try {
      return readdirSync(this.path);
    } catch {
      return [];
    }
  }
}

/** Signal 0 checks existence only; EPERM means alive but another user's. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

// Whether each matching fd is a directory, remembered between a watcher's polls: the stat that tells
// costs as much as the readlink, and an fd keeps its kind while it keeps its target. Keyed by
// (pid, fd, target), so a reopened fd pointing elsewhere is statted again. A path that turns from
// file to directory (or back) under the same pid and fd number between two polls is the one case
// it cannot see; that needs the fd closed, the path replaced and reopened at the same number.
// The fd's access mode is remembered the same way (an lstat per matching fd per poll saved). An fd
// closed and reopened on the same path at the same number between two polls keeps its first mode
// here (the holder's row identity cannot tell that reopen either); the details panel reads fdinfo fresh.

import { PidMemory } from './pid-memory.js';

/** fd name -> what it pointed at, whether that was a directory, and its access mode as open(2) flags. */
export type PidKinds = Map<string, { target: string; dir: boolean; flags?: number | null }>;

export class FdKindCache extends PidMemory<PidKinds> {
  of(pid: number): PidKinds | undefined {
    return this.byPid.get(pid);
  }

  /** Keeps only what this walk saw for `pid`: closed fds drop out. */
  remember(pid: number, kinds: PidKinds | undefined): void {
    if (kinds) this.byPid.set(pid, kinds);
    else this.byPid.delete(pid);
  }
}

// A watched dir that is deleted, or swapped for another (a link, a new dir of the same name), would
// leave a watch reporting nothing, or another dir's holders, under the old name. Before each poll the
// dir is checked to be the one the watch started on: lstat, so a link put in its place is seen, and
// device and inode, so a new dir of the same name is too. A stat holds nothing open.
import { lstatSync, type Stats } from 'node:fs';
import { BadInputError } from '../core/errors.js';
import type { WatchDir } from '../core/platform.js';

/** How a watched dir changed; a link or another dir of the name can be followed, the rest cannot. */
export type DirChange = 'deleted' | 'link' | 'file' | 'another-dir';

const SAID: Record<DirChange, string> = {
  deleted: 'was deleted',
  link: 'was replaced by a symbolic link',
  file: 'was replaced by a file',
  'another-dir': 'was replaced by another directory of the same name',
};

/** A one-line BadInputError (exit 2) that says which dir changed and how. */
export class WatchedDirChangedError extends BadInputError {
  constructor(
    readonly path: string,
    readonly change: DirChange,
  ) {
    super(`the watched directory ${path} ${SAID[change]}`);
  }

  /** Whether there is a dir under the name to watch now (`watch --follow-dir`). */
  get followable(): boolean {
    return this.change === 'link' || this.change === 'another-dir';
  }
}

/**
 * A check to run before each poll; it throws WatchedDirChangedError once a dir is gone or replaced. A dir found
 * missing is said deleted only when it is still missing at the next check: a swap (rename the dir away,
 * put a link in its place) passes through a moment with no name at all.
 */
export function watchedDirsGuard(dirs: readonly WatchDir[]): () => Promise<void> {
  const started = dirs.map((dir) => statOrNull(dir.display));
  const missing = dirs.map(() => false);
  return async () =>
    dirs.forEach((dir, i) => {
      missing[i] = checkSame(dir.display, started[i] ?? null, missing[i]!);
    });
}

/** Throws when the dir is replaced, or missing twice in a row; true when it is missing now. */
function checkSame(path: string, started: Stats | null, missingBefore: boolean): boolean {
  let now: Stats;
  try {
    now = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return false; // unreadable for a moment: the scan says what it can
    if (missingBefore) throw new WatchedDirChangedError(path, 'deleted');
    return true;
  }
  if (now.isSymbolicLink()) throw new WatchedDirChangedError(path, 'link');
  if (!now.isDirectory()) throw new WatchedDirChangedError(path, 'file');
  // Some filesystems give no inode (0): then the name is all there is to go by.
  if (started && now.ino !== 0 && started.ino !== 0 && (now.ino !== started.ino || now.dev !== started.dev))
    throw new WatchedDirChangedError(path, 'another-dir');
  return false;
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

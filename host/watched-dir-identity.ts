// A watched dir that is deleted, or swapped for another (a link, a new dir of the same name), would
// leave a watch reporting nothing, or another dir's holders, under the old name. Before each poll the
// dir is checked to be the one the watch started on: lstat, so a link put in its place is seen, and
// device and inode, so a new dir of the same name is too. A stat holds nothing open.
import { lstatSync, type Stats } from 'node:fs';
import { BadInputError } from '../core/errors.js';
import type { WatchDir } from '../core/platform.js';

/** A check to run before each poll; it throws BadInputError once a dir is gone or replaced. */
export function watchedDirsGuard(dirs: readonly WatchDir[]): () => Promise<void> {
  const started = dirs.map((dir) => statOrNull(dir.display));
  return async () => dirs.forEach((dir, i) => checkSame(dir.display, started[i] ?? null));
}

function checkSame(path: string, started: Stats | null): void {
  let now: Stats;
  try {
    now = lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new BadInputError(`the watched directory ${path} was deleted`);
    return; // unreadable for a moment: the scan says what it can
  }
  if (now.isSymbolicLink()) throw new BadInputError(`the watched directory ${path} was replaced by a symbolic link`);
  if (!now.isDirectory()) throw new BadInputError(`the watched directory ${path} was replaced by a file`);
  // Some filesystems give no inode (0): then the name is all there is to go by.
  if (started && now.ino !== 0 && started.ino !== 0 && (now.ino !== started.ino || now.dev !== started.dev))
    throw new BadInputError(`the watched directory ${path} was replaced by another directory of the same name`);
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

// What holdwatch keeps is this user's alone: journals, probe logs and reports hold every command line of
// a run, minidumps hold a process's memory. Dirs are made 0700 and files 0600, whatever the umask (on
// Windows the modes mean little; %LOCALAPPDATA% is the user's own already). Nothing is written or
// chmodded through a link, nor into a file another user owns: a planted link would make holdwatch
// (root's, perhaps) overwrite or chmod its target.
import { closeSync, constants, existsSync, fchmodSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BadInputError } from '../core/errors.js';
import { checkTrustedDir } from './trusted-dir.js';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const POSIX = process.platform !== 'win32';
/** O_NOFOLLOW: open fails (ELOOP) when the last component is a symbolic link. 0 where it does not exist. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * `dir` and the parents it needs, created 0700, and checked to be this user's alone (trusted-dir.ts).
 * With `holdwatchs`, `dir` is one of holdwatch's own subdirs (runs/, ui/, inbox/, a run's probes dir)
 * of such a dir: it must be a real dir of this user's, not a link, and is made 0700 (an older
 * holdwatch may have made it 0755). Without, `dir` is the data dir itself, which HOLDWATCH_DATA_DIR
 * may name anywhere: it keeps its mode.
 */
export function makePrivateDir(dir: string, { holdwatchs = false }: { holdwatchs?: boolean } = {}): void {
  if (!POSIX) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    return;
  }
  const parent = holdwatchs ? dirname(resolve(dir)) : resolve(dir);
  createMissing(parent);
  checkTrustedDir(parent, 'the data directory');
  if (holdwatchs) makeOwnSubdir(dir);
}

/**
 * Writes `content` to `path`, 0600: a text, bytes, or texts written as they come (a report too big to
 * hold whole). 'w' replaces, 'a' appends, 'wx' only creates. A link at `path`, or a file that is not
 * this user's or has other names (a hard link), is refused, not written through.
 */
export function writePrivateFile(path: string, content: string | Uint8Array | Iterable<string>, flag: 'w' | 'a' | 'wx' = 'w'): void {
  const pieces = typeof content === 'string' || content instanceof Uint8Array ? [content] : content;
  const fd = POSIX ? openPrivateFile(path, flag) : openSync(path, flag, PRIVATE_FILE_MODE);
  try {
    if (POSIX && flag === 'w') ftruncateSync(fd, 0);
    for (const piece of pieces) writeFileSync(fd, piece);
  } finally {
    closeSync(fd);
  }
}

/**
 * An fd to write `path` (0600): created, or an existing plain file of this user's with one name.
 * The checks are made on what was opened (fstat), so nothing can be swapped in between.
 */
export function openPrivateFile(path: string, flag: 'w' | 'a' | 'wx'): number {
  const { O_WRONLY, O_CREAT, O_EXCL, O_APPEND } = constants;
  const flags = O_WRONLY | O_CREAT | NO_FOLLOW | (flag === 'wx' ? O_EXCL : 0) | (flag === 'a' ? O_APPEND : 0);
  let fd: number;
  try {
    fd = openSync(path, flags, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new BadInputError(`${path} is a symbolic link: holdwatch does not write through links`);
    throw error;
  }
  try {
    if (POSIX) {
      const stats = fstatSync(fd);
      const uid = process.geteuid?.();
      if (!stats.isFile()) throw new BadInputError(`${path} is not a plain file: holdwatch writes only plain files`);
      if (uid !== undefined && stats.uid !== uid)
        throw new BadInputError(`${path} belongs to uid ${stats.uid}, not to this user: holdwatch does not write into it`);
      if (stats.nlink > 1) throw new BadInputError(`${path} has other names (hard links): holdwatch does not write into it`);
      if ((stats.mode & 0o777) !== PRIVATE_FILE_MODE) fchmodSync(fd, PRIVATE_FILE_MODE);
    }
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Creates the missing dirs on the way to `dir`, 0700, one at a time, so a failure says its own cause (EROFS, EACCES). */
function createMissing(dir: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) {
    missing.push(at);
    if (dirname(at) === at) break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** A subdir of a trusted dir: made, or found as a real dir of this user's (opened without following a link), then 0700. */
function makeOwnSubdir(dir: string): void {
  try {
    mkdirSync(dir, { mode: PRIVATE_DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | NO_FOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR')
      throw new BadInputError(`${dir} is not a directory (a link or a file): holdwatch uses only its own directories there`);
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.uid !== process.geteuid?.())
      throw new BadInputError(`${dir} belongs to uid ${stats.uid}, not to this user: holdwatch uses only its own directories there`);
    if ((stats.mode & 0o777) !== PRIVATE_DIR_MODE) fchmodSync(fd, PRIVATE_DIR_MODE);
  } finally {
    closeSync(fd);
  }
}

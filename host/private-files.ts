// What holdwatch keeps is this user's alone: journals, probe logs and reports hold every command line of
// a run, minidumps hold a process's memory. Dirs are made 0700 and files 0600, whatever the umask (on
// Windows the modes mean little; %LOCALAPPDATA% is the user's own already).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * `dir` and the parents it needs, created 0700. A dir that was there already keeps its mode, unless
 * `holdwatchs` says it is one of holdwatch's own subdirs (runs/, ui/), which an older holdwatch may
 * have made 0755: the data dir itself may be any dir HOLDWATCH_DATA_DIR names, /tmp included.
 */
export function makePrivateDir(dir: string, { holdwatchs = false }: { holdwatchs?: boolean } = {}): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (holdwatchs && process.platform !== 'win32') chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Writes `content` to `path` (0600 when created; an existing file is made 0600 too). 'wx': only a new file. */
export function writePrivateFile(path: string, content: string | Uint8Array, flag: 'w' | 'a' | 'wx' = 'w'): void {
  writeFileSync(path, content, { mode: PRIVATE_FILE_MODE, flag });
  if (process.platform !== 'win32') chmodSync(path, PRIVATE_FILE_MODE);
}

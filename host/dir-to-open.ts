// The directory a front end was started on (`holdwatch ui --watch <dir>`, the desktop app's argument
// from the Explorer context menu or a second instance), checked once before any window shows it: an
// absolute path that is a directory, or one sentence saying why not. A stat only: nothing stays open.
import { statSync } from 'node:fs';
import type { DirToOpen } from '../contract/service.js';

/** `absolutePath` is already resolved against the starting process's working directory. */
export function checkDirToOpen(absolutePath: string): DirToOpen {
  if (absolutePath.includes('\0')) return { problem: 'the directory path contains a NUL byte' };
  try {
    if (statSync(absolutePath).isDirectory()) return { dir: absolutePath };
    return { problem: `not a directory: ${absolutePath} (holdwatch watches folders; open the folder that holds it)` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problem: `no such directory: ${absolutePath}` };
    if (code === 'ENOTDIR') return { problem: `not a directory: ${absolutePath}` };
    if (code === 'EACCES' || code === 'EPERM') return { problem: `cannot read directory: ${absolutePath} (permission denied)` };
    return { problem: `cannot open directory: ${absolutePath} (${code ?? String(error)})` };
  }
}

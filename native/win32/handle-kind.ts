// What a File handle is, as a holder: the one decision the scan and `holdwatch close` share.
import type { HolderKind } from '../../contract/holders.js';

/**
 * `file`, `dir`, or `cwd`: a process's current directory is an open handle (PEB
 * CurrentDirectory.Handle), and that handle is why an rmdir fails, so it is reported as `cwd`, not
 * as a plain `dir`. `isCurrentDirectory` is asked only for a directory handle.
 */
export function classifyHandle(directory: boolean, isCurrentDirectory: () => boolean): Extract<HolderKind, 'file' | 'dir' | 'cwd'> {
  if (!directory) return 'file';
  return isCurrentDirectory() ? 'cwd' : 'dir';
}

// THE SEAM for core/windows-paths.ts (written in parallel): turns what a user typed into one Win32
// path. Until that module lands this handles only the forms our tests use; replace the body of
// `toWin32Path` with a call into core/windows-paths.ts and delete the rest.
import { win32 } from 'node:path';

export function toWin32Path(input: string, cwd: string): string {
  let path = input;
  // `\\?\C:\x` -> `C:\x`; `\\?\UNC\server\share` -> `\\server\share`.
  if (/^\\\\\?\\UNC\\/i.test(path)) path = `\\\\${path.slice(8)}`;
  else if (/^\\\\\?\\[A-Za-z]:/.test(path)) path = path.slice(4);
  // MSYS `/c/Users/x` -> `C:\Users\x`.
  const msysDrive = /^\/([A-Za-z])(\/|$)/.exec(path);
  if (msysDrive) path = `${msysDrive[1]!.toUpperCase()}:\\${path.slice(3)}`;
  return win32.resolve(cwd, path.replace(/\//g, '\\'));
}

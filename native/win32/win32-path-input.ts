// What a user typed -> one Win32 path. The pure part is windows-paths.ts; this file gathers what
// only the OS knows (current directory, the Git for Windows root, GetTempPathW) and expands 8.3 aliases.
import { existsSync } from 'node:fs';
import { win32 } from 'node:path';
import { normalizeWindowsPath, type WindowsPathEnv } from './windows-paths.js';
import { longPathName, tempPath } from './kernel32.js';

/** Pure: the canonical Win32 path for `input` in `env` (no 8.3 expansion: that needs the OS). */
export function toWin32Path(input: string, env: WindowsPathEnv): string {
  return normalizeWindowsPath(input, env);
}

/**
 * The path the backend opens. POSIX-looking input gets the MSYS root and temp dir (only then: PATH
 * probing costs file-system calls); any segment with `~` goes through GetLongPathNameW, because the
 * kernel name of a handle opened through an alias keeps the alias on Windows, and Wine's aliases
 * (`A_LO~LNO`) do not look like NTFS's `RUNNER~1`, so `hasShortNameSegment` alone would miss them.
 */
export function resolveInputPath(input: string, cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const posix = input.startsWith('/') && !input.startsWith('//');
  const msysRoot = posix ? findMsysRoot(env.PATH ?? env.Path ?? '') : null;
  const path = toWin32Path(input, { cwd, msysRoot, tempDir: msysRoot ? tempPath() : null });
  if (!path.split('\\').some((segment) => segment.includes('~'))) return path;
  // Fails when a parent cannot be listed; the alias is then opened as typed.
  return longPathName(path) ?? path;
}

/**
 * Git for Windows' root (`C:\Program Files\Git`), where MSYS resolves `/usr/...` and `/tmp`: the
 * folder above a PATH entry `...\usr\bin` that holds msys-2.0.dll, or above `...\cmd` (git.exe's
 * usual PATH entry) when `usr\bin\msys-2.0.dll` sits beside it. Null when no such install is on PATH.
 */
export function findMsysRoot(pathVariable: string, exists: (path: string) => boolean = existsSync): string | null {
  for (const raw of pathVariable.split(';')) {
    const entry = raw.trim().replace(/[\\/]+$/, '');
    if (!win32.isAbsolute(entry)) continue;
    const candidates = [/[\\/]usr[\\/]bin$/i, /[\\/](cmd|mingw64[\\/]bin|mingw32[\\/]bin|bin)$/i];
    for (const suffix of candidates) {
      const match = suffix.exec(entry);
      if (!match) continue;
      const root = entry.slice(0, match.index);
      if (exists(win32.join(root, 'usr', 'bin', 'msys-2.0.dll'))) return root;
    }
  }
  return null;
}

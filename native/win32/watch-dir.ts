// The watched directory as the win32 backend matches it: its kernel name (the form handle names come
// in) and its DOS form for display.
import { statSync } from 'node:fs';
import { BadInputError } from '../../core/errors.js';
import type { WatchDir } from '../../core/platform.js';
import { normalizeWindowsPath } from '../../core/windows-paths.js';
import { parseObjectName } from './handle-table.js';
import { shortKernelName } from './dir-aliases.js';
import { closeHandle, finalPathName, openForQuery, shortPathName, VOLUME_NAME_DOS } from './kernel32.js';
import { NativeMemory } from './koffi-loader.js';
import * as nt from './ntdll.js';
import { NtStatusError, ntSuccess } from './win-errors.js';
import { resolveInputPath } from './win32-path-input.js';

/**
 * The watched directory's kernel name, the form handle names come in (`\Device\HarddiskVolume3\x`
 * on Windows, `\??\Z:\x` under Wine): opened with FILE_FLAG_BACKUP_SEMANTICS and full sharing,
 * named, closed. Every input form (`C:/x`, `\\?\C:\x`, 8.3 aliases, MSYS `/c/x`) lands on one name.
 */
export function resolveWin32WatchDir(input: string, cwd = process.cwd()): WatchDir {
  if (input.trim() === '') throw new BadInputError('no directory given (an empty path)');
  // core/windows-paths throws BadInputError for what Win32 cannot spell (quotes, `<>|`, a NUL).
  const path = resolveInputPath(input, cwd);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInputError(code === 'ENOENT' ? `no such directory: ${input}` : `cannot open directory: ${input} (${code ?? String(error)})`);
  }
  if (!isDir) throw new BadInputError(`not a directory: ${input}`);
  let handle;
  try {
    handle = openForQuery(path);
  } catch (error) {
    throw new BadInputError(`cannot open directory: ${input} (${(error as Error).message})`);
  }
  const memory = new NativeMemory(8 * 1024);
  try {
    // Our own directory handle, not a pipe: this name query cannot hang, so it runs in-process.
    const result = nt.ntQueryObject(handle, nt.ObjectNameInformation, memory);
    if (!ntSuccess(result.status)) throw new NtStatusError('NtQueryObject(ObjectNameInformation)', result.status);
    const kernel = parseObjectName(memory.read(), memory.address);
    if (!kernel) throw new BadInputError(`cannot name directory: ${input}`);
    // GetFinalPathNameByHandleW gives the on-disk case and long names: the best form to show.
    const display = normalizeWindowsPath(finalPathName(handle, VOLUME_NAME_DOS));
    const matchPrefix = kernel.replace(/\\$/, '');
    // Handles opened through the dir's 8.3 name keep it (dir-aliases.ts): match that spelling too.
    const alias = shortKernelName(display, matchPrefix, shortPathName(display));
    return { input, display, matchPrefix, caseInsensitive: true, ...(alias ? { aliasPrefixes: [alias] } : {}) };
  } finally {
    memory.free();
    closeHandle(handle);
  }
}

// The watched directory as the win32 backend matches it: its kernel name (the form handle names come
// in) and its DOS form for display.
import { statSync } from 'node:fs';
import { BadInputError } from '../../core/errors.js';
import type { WatchDir } from '../../core/platform.js';
import { extendedLengthPath, kernelToDos, normalizeWindowsPath } from './windows-paths.js';
import { parseObjectName } from './handle-table.js';
import { shortKernelName } from './dir-aliases.js';
import { closeHandle, finalPathName, openForQuery, shortPathName, VOLUME_NAME_DOS } from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import * as nt from './ntdll.js';
import { DosDevices } from './path-keys.js';
import { NtStatusError, ntSuccess } from './win-errors.js';
import type { FileHandle } from './win-types.js';
import { resolveInputPath } from './win32-path-input.js';

/**
 * GetFinalPathNameByHandleW gives the on-disk case and long names: the best form to show. Where it
 * fails (Wine past MAX_PATH: ERROR_MORE_DATA at any buffer size), the kernel name through the drive table.
 */
function displayName(handle: FileHandle, kernel: string, input: string): string {
  try {
    return normalizeWindowsPath(finalPathName(handle, VOLUME_NAME_DOS));
  } catch (error) {
    const dos = kernelToDos(kernel, new DosDevices().current());
    if (dos === null) throw new BadInputError(`cannot name directory: ${input} (${(error as Error).message})`);
    return normalizeWindowsPath(dos);
  }
}

/**
 * The watched directory's kernel name, the form handle names come in (`\Device\HarddiskVolume3\x`
 * on Windows, `\??\Z:\x` under Wine): opened with FILE_FLAG_BACKUP_SEMANTICS and full sharing,
 * named, closed. Every input form (`C:/x`, `\\?\C:\x`, 8.3 aliases, MSYS `/c/x`) lands on one name.
 */
export function resolveWin32WatchDir(input: string, cwd = process.cwd()): WatchDir {
  if (input.trim() === '') throw new BadInputError('no directory given (an empty path)');
  // windows-paths.ts throws BadInputError for what Win32 cannot spell (quotes, `<>|`, a NUL).
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
    handle = openForQuery(extendedLengthPath(path));
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
    const matchPrefix = kernel.replace(/\\$/, '');
    const display = displayName(handle, matchPrefix, input);
    // Handles opened through the dir's 8.3 name keep it (dir-aliases.ts): match that spelling too.
    const short = shortPathName(extendedLengthPath(display));
    const alias = shortKernelName(display, matchPrefix, short === null ? null : normalizeWindowsPath(short));
    return { input, display, matchPrefix, caseInsensitive: true, ...(alias ? { aliasPrefixes: [alias] } : {}) };
  } finally {
    memory.free();
    closeHandle(handle);
  }
}

// dbghelp.dll: MiniDumpWriteDump, the "save dump" WinDbg and Visual Studio open. dbghelp is not
// thread-safe; holdwatch calls it from one JavaScript thread only.
import { lazyLibrary } from '../koffi-loader.js';
import { lastError } from './kernel32.js';
import { Win32Error } from './win-errors.js';
import type { FileHandle, ProcessHandle } from './win-types.js';

const fn = lazyLibrary('dbghelp.dll');

const miniDumpWriteDump = fn(
  'bool MiniDumpWriteDump(void *process, uint32_t pid, void *file, uint32_t dumpType, void *exceptionParam, void *userStreamParam, void *callbackParam)',
);

const symInitializeW = fn('bool SymInitializeW(void *process, str16 searchPath, bool invadeProcess)');
const symCleanup = fn('bool SymCleanup(void *process)');

// MINIDUMP_TYPE flags (minidumpapiset.h).
export const MiniDumpWithHandleData = 0x4;
export const MiniDumpWithUnloadedModules = 0x20;
export const MiniDumpWithIndirectlyReferencedMemory = 0x40;
export const MiniDumpWithProcessThreadData = 0x100;
export const MiniDumpWithFullMemoryInfo = 0x800;
export const MiniDumpWithThreadInfo = 0x1000;

/**
 * Writes a dump of `process` (opened with PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, plus
 * PROCESS_DUP_HANDLE for handle data) into `file`. The target's threads are suspended meanwhile.
 * GetLastError then holds an HRESULT more often than a Win32 code; it is reported as read.
 */
export function writeMiniDump(process: ProcessHandle, pid: number, file: FileHandle, dumpType: number): void {
  if (!miniDumpWriteDump()(process, pid, file, dumpType, null, null, null)) throw new Win32Error('MiniDumpWriteDump', lastError());
}

/**
 * A dbghelp session for `process` that loads no symbols (invadeProcess = false); end it with
 * endSymbolSession in `finally`. Wine's MiniDumpWriteDump opens an invading session itself when
 * none exists and loads every module's symbols: 20-30 s for node.exe, ~1 s with this one.
 */
export function beginSymbolSession(process: ProcessHandle): void {
  if (!symInitializeW()(process, null, false)) throw new Win32Error('SymInitializeW', lastError());
}

export function endSymbolSession(process: ProcessHandle): void {
  if (!symCleanup()(process)) throw new Win32Error('SymCleanup', lastError());
}

// kernel32.dll: process and file handles. Every function that creates a handle returns it branded;
// the caller closes it in `finally`. Win32Error carries GetLastError, read right after the call
// (koffi preserves the thread's last-error value across its own work).
import { lazyLibrary } from '../koffi-loader.js';
import { Win32Error } from './win-errors.js';
import { INVALID_HANDLE_VALUE, type FileHandle, type ProcessHandle, type PseudoHandle, type RemoteHandleValue } from './win-types.js';

const fn = lazyLibrary('kernel32.dll');

const getLastError = fn('uint32_t GetLastError()');
const openProcessFn = fn('void *OpenProcess(uint32_t access, bool inherit, uint32_t pid)');
const closeHandleFn = fn('bool CloseHandle(void *handle)');
const getCurrentProcess = fn('void *GetCurrentProcess()');
const duplicateHandleFn = fn(
  'bool DuplicateHandle(void *sourceProcess, void *source, void *targetProcess, _Out_ uint64_t *target, uint32_t access, bool inherit, uint32_t options)',
);
const createFileW = fn('void *CreateFileW(str16 name, uint32_t access, uint32_t share, void *security, uint32_t disposition, uint32_t flags, void *template)');
const getFinalPathNameByHandleW = fn('uint32_t GetFinalPathNameByHandleW(void *file, void *path, uint32_t chars, uint32_t flags)');
const getProcessTimes = fn('bool GetProcessTimes(void *process, _Out_ uint64_t *creation, _Out_ uint64_t *exit, _Out_ uint64_t *kernel, _Out_ uint64_t *user)');
const readProcessMemory = fn('bool ReadProcessMemory(void *process, void *address, void *buffer, size_t size, _Out_ size_t *read)');
const queryDosDeviceW = fn('uint32_t QueryDosDeviceW(str16 device, void *target, uint32_t chars)');
const getLogicalDriveStringsW = fn('uint32_t GetLogicalDriveStringsW(uint32_t chars, void *buffer)');
const getLongPathNameW = fn('uint32_t GetLongPathNameW(str16 path, void *buffer, uint32_t chars)');
const getShortPathNameW = fn('uint32_t GetShortPathNameW(str16 path, void *buffer, uint32_t chars)');
const getTempPathW = fn('uint32_t GetTempPathW(uint32_t chars, void *buffer)');
const waitForSingleObject = fn('uint32_t WaitForSingleObject(void *handle, uint32_t ms)');
const getExitCodeProcess = fn('bool GetExitCodeProcess(void *process, _Out_ uint32_t *code)');
const terminateProcessFn = fn('bool TerminateProcess(void *process, uint32_t exitCode)');
const queryFullProcessImageNameW = fn('bool QueryFullProcessImageNameW(void *process, uint32_t flags, void *name, _Inout_ uint32_t *chars)');

export const PROCESS_DUP_HANDLE = 0x0040;
export const PROCESS_VM_READ = 0x0010;
export const PROCESS_QUERY_INFORMATION = 0x0400;
export const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000;
export const SYNCHRONIZE = 0x00100000;
export const DUPLICATE_SAME_ACCESS = 0x2;
const DUPLICATE_CLOSE_SOURCE = 0x1;
export const FILE_SHARE_ALL = 0x1 | 0x2 | 0x4;
export const FILE_READ_ATTRIBUTES = 0x80;
export const OPEN_EXISTING = 3;
export const FILE_FLAG_BACKUP_SEMANTICS = 0x02000000;
export const VOLUME_NAME_DOS = 0x0;
export const VOLUME_NAME_NT = 0x2;
const GENERIC_WRITE = 0x40000000;
const FILE_SHARE_READ = 0x1;
const CREATE_NEW = 1;
const FILE_ATTRIBUTE_NORMAL = 0x80;

export function lastError(): number {
  return getLastError()() as number;
}

export function closeHandle(handle: ProcessHandle | FileHandle | bigint): void {
  if (handle === 0n || handle === INVALID_HANDLE_VALUE) return;
  if (!closeHandleFn()(handle)) throw new Win32Error('CloseHandle', lastError());
}

export function currentProcess(): PseudoHandle {
  return getCurrentProcess()() as PseudoHandle;
}

/** Throws Win32Error (5 = access denied, 87 = gone) when the process cannot be opened. */
export function openProcess(pid: number, access: number): ProcessHandle {
  const handle = openProcessFn()(access, false, pid) as bigint;
  if (!handle) throw new Win32Error('OpenProcess', lastError());
  return handle as ProcessHandle;
}

/** A copy of another process's handle, owned by us: close it in `finally`. */
export function duplicateHandle(owner: ProcessHandle, value: RemoteHandleValue): FileHandle {
  const out = [0n];
  if (!duplicateHandleFn()(owner, value, currentProcess(), out, 0, false, DUPLICATE_SAME_ACCESS)) throw new Win32Error('DuplicateHandle', lastError());
  return BigInt(out[0] ?? 0) as FileHandle;
}

/**
 * Closes `value` in `owner`'s table: duplicated into ours with DUPLICATE_CLOSE_SOURCE (which closes
 * the source even when the copy fails), and our copy closed here, so we never hold the file.
 */
export function closeRemoteHandle(owner: ProcessHandle, value: RemoteHandleValue): void {
  const out = [0n];
  const ok = Boolean(duplicateHandleFn()(owner, value, currentProcess(), out, 0, false, DUPLICATE_SAME_ACCESS | DUPLICATE_CLOSE_SOURCE));
  const error = ok ? 0 : lastError();
  closeHandle(BigInt(out[0] ?? 0));
  if (!ok) throw new Win32Error('DuplicateHandle', error);
}

/** Opens a file or directory for querying its name only; full sharing so we never block others. */
export function openForQuery(path: string): FileHandle {
  const handle = createFileW()(path, FILE_READ_ATTRIBUTES, FILE_SHARE_ALL, null, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, null) as bigint;
  if (handle === INVALID_HANDLE_VALUE || BigInt.asIntN(64, handle) === -1n) throw new Win32Error('CreateFileW', lastError());
  return handle as FileHandle;
}

/** Creates a new file for writing (fails if it exists); readers may share it. Close it in `finally`. */
export function createFileForWrite(path: string): FileHandle {
  const handle = createFileW()(path, GENERIC_WRITE, FILE_SHARE_READ, null, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, null) as bigint;
  if (handle === INVALID_HANDLE_VALUE || BigInt.asIntN(64, handle) === -1n) throw new Win32Error('CreateFileW', lastError());
  return handle as FileHandle;
}

export function finalPathName(file: FileHandle, flags: number): string {
  let chars = 512;
  for (;;) {
    const buf = Buffer.alloc(chars * 2);
    const written = getFinalPathNameByHandleW()(file, buf, chars, flags) as number;
    if (written === 0) throw new Win32Error('GetFinalPathNameByHandleW', lastError());
    if (written < chars) return buf.toString('utf16le', 0, written * 2);
    chars = written + 1;
  }
}

/** Creation time as FILETIME ticks. */
export function processCreationTime(process: ProcessHandle): bigint {
  const creation = [0n];
  if (!getProcessTimes()(process, creation, [0n], [0n], [0n])) throw new Win32Error('GetProcessTimes', lastError());
  return BigInt(creation[0] ?? 0);
}

export function readMemory(process: ProcessHandle, address: bigint, size: number): Buffer {
  const buf = Buffer.alloc(size);
  const read = [0];
  if (!readProcessMemory()(process, address, buf, size, read)) throw new Win32Error('ReadProcessMemory', lastError());
  return buf.subarray(0, Number(read[0] ?? 0));
}

/** `C:` -> `\Device\HarddiskVolume3` (first target only). */
export function queryDosDevice(device: string): string | null {
  const buf = Buffer.alloc(1024 * 2);
  const chars = queryDosDeviceW()(device, buf, 1024) as number;
  if (chars === 0) return null;
  return buf.toString('utf16le', 0, chars * 2).split('\0')[0] ?? null;
}

/** `['C:', 'Z:']`. */
export function logicalDrives(): string[] {
  const buf = Buffer.alloc(512 * 2);
  const chars = getLogicalDriveStringsW()(512, buf) as number;
  return buf
    .toString('utf16le', 0, chars * 2)
    .split('\0')
    .filter(Boolean)
    .map((root) => root.slice(0, 2));
}

/** `C:\Users\RUNNER~1\x` -> `C:\Users\runneradmin\x`; null when the path cannot be expanded (missing, denied). */
export function longPathName(path: string): string | null {
  return convertedPath(getLongPathNameW(), path);
}

/** `C:\Users\runneradmin\x` -> `C:\Users\RUNNER~1\x` (each component's 8.3 name where it has one); null when it cannot. */
export function shortPathName(path: string): string | null {
  return convertedPath(getShortPathNameW(), path);
}

/** GetLongPathNameW and GetShortPathNameW: answer the size needed when the buffer is too small. */
function convertedPath(convert: (path: string, buffer: Buffer, chars: number) => unknown, path: string): string | null {
  let chars = 1024;
  for (let attempt = 0; attempt < 3; attempt++) {
    const buf = Buffer.alloc(chars * 2);
    const written = convert(path, buf, chars) as number;
    if (written === 0) return null;
    if (written < chars) return buf.toString('utf16le', 0, written * 2);
    chars = written + 1;
  }
  return null;
}

/** What GetTempPathW answers (TMP, TEMP, USERPROFILE, then the Windows dir): MSYS's `/tmp` under Git for Windows. */
export function tempPath(): string | null {
  const buf = Buffer.alloc(1024 * 2);
  const written = getTempPathW()(1024, buf) as number;
  return written === 0 || written > 1024 ? null : buf.toString('utf16le', 0, written * 2);
}

/** The process's image as a Win32 path (`C:\x\node.exe`); needs only PROCESS_QUERY_LIMITED_INFORMATION. */
export function processImageName(process: ProcessHandle): string {
  const buf = Buffer.alloc(1024 * 2);
  const chars = [1024];
  if (!queryFullProcessImageNameW()(process, 0, buf, chars)) throw new Win32Error('QueryFullProcessImageNameW', lastError());
  return buf.toString('utf16le', 0, (chars[0] ?? 0) * 2);
}

const WAIT_OBJECT_0 = 0;
const WAIT_FAILED = 0xffffffff;

/** True once the process has exited; never waits (a zero timeout), so the event loop never blocks. */
/** Still running, by its exit code (needs only QUERY_LIMITED_INFORMATION, not SYNCHRONIZE); false when it cannot tell. */
export function stillActive(process: ProcessHandle): boolean {
  const STILL_ACTIVE = 259;
  const code = [0];
  return Boolean(getExitCodeProcess()(process, code)) && code[0] === STILL_ACTIVE;
}

export function processExited(process: ProcessHandle): boolean {
  const result = waitForSingleObject()(process, 0) as number;
  if (result === WAIT_FAILED) throw new Win32Error('WaitForSingleObject', lastError());
  return result === WAIT_OBJECT_0;
}

export function terminateProcess(process: ProcessHandle, exitCode: number): void {
  if (!terminateProcessFn()(process, exitCode)) throw new Win32Error('TerminateProcess', lastError());
}

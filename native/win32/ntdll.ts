// ntdll.dll: the native API (NTSTATUS-returning). Callers throw NtStatusError on failure.
import { lazyLibrary, type NativeMemory } from '../koffi-loader.js';
import type { FileHandle, ProcessHandle } from './win-types.js';

const fn = lazyLibrary('ntdll.dll');

const querySystemInformation = fn('int32_t NtQuerySystemInformation(int32_t cls, void *info, uint32_t length, _Out_ uint32_t *returnLength)');
const queryObject = fn('int32_t NtQueryObject(void *handle, int32_t cls, void *info, uint32_t length, _Out_ uint32_t *returnLength)');
const queryInformationProcess = fn('int32_t NtQueryInformationProcess(void *process, int32_t cls, void *info, uint32_t length, _Out_ uint32_t *returnLength)');
const queryVirtualMemory = fn(
  'int32_t NtQueryVirtualMemory(void *process, uint64_t base, int32_t cls, void *info, uint64_t length, _Out_ uint64_t *returnLength)',
);
// The same two calls, run on a thread of the pool (koffi's async calls): the name worker stops waiting
// for one that hangs. Their memory is native, owned by the caller until the call completes.
const queryObjectOnThread = fn('int32_t NtQueryObject(void *handle, int32_t cls, void *info, uint32_t length, void *returnLength)');
const queryInformationFileOnThread = fn('int32_t NtQueryInformationFile(void *file, void *ioStatus, void *info, uint32_t length, int32_t cls)');

export const SystemProcessInformation = 5;
export const SystemExtendedHandleInformation = 64;
export const ObjectBasicInformation = 0;
/** OBJECT_BASIC_INFORMATION's size: the call refuses any other length (STATUS_INFO_LENGTH_MISMATCH). */
export const OBJECT_BASIC_INFORMATION_BYTES = 56;
export const ObjectNameInformation = 1;
export const ObjectTypesInformation = 3;
export const ProcessBasicInformation = 0;
export const ProcessWow64Information = 26;
export const ProcessHandleInformation = 51;
/** PS_PROTECTION, one byte (native/win32/protection.ts). */
export const ProcessProtectionInformation = 61;
export const FileStandardInformation = 5;
export const MemoryBasicInformation = 0;
/** The file a mapped view's section was made from: a UNICODE_STRING with the kernel name. */
export const MemoryMappedFilenameInformation = 2;

export interface NtResult {
  /** Unsigned NTSTATUS. */
  status: number;
  returnLength: number;
}

export function ntQuerySystemInformation(cls: number, memory: NativeMemory): NtResult {
  const out = [0];
  const status = querySystemInformation()(cls, memory.address, memory.size, out) as number;
  return { status: status >>> 0, returnLength: out[0] ?? 0 };
}

/** The same call filling a Buffer (koffi passes its memory for the call): for answers without self-pointers. */
export function ntQuerySystemInformationInto(cls: number, buffer: Buffer): NtResult {
  const out = [0];
  const status = querySystemInformation()(cls, buffer, buffer.length, out) as number;
  return { status: status >>> 0, returnLength: out[0] ?? 0 };
}

/** `handle` 0n queries system-wide classes such as ObjectTypesInformation. */
export function ntQueryObject(handle: FileHandle | 0n, cls: number, memory: NativeMemory): NtResult {
  const out = [0];
  const status = queryObject()(handle, cls, memory.address, memory.size, out) as number;
  return { status: status >>> 0, returnLength: out[0] ?? 0 };
}

export function ntQueryInformationProcess(process: ProcessHandle, cls: number, memory: NativeMemory): NtResult {
  const out = [0];
  const status = queryInformationProcess()(process, cls, memory.address, memory.size, out) as number;
  return { status: status >>> 0, returnLength: out[0] ?? 0 };
}

export function ntQueryVirtualMemory(process: ProcessHandle, base: bigint, cls: number, memory: NativeMemory): NtResult {
  const out = [0n];
  const status = queryVirtualMemory()(process, base, cls, memory.address, BigInt(memory.size), out) as number;
  return { status: status >>> 0, returnLength: Number(out[0] ?? 0) };
}

/** The unsigned NTSTATUS of a call run on a pool thread; STATUS_UNSUCCESSFUL when koffi itself failed. */
export type OnThreadDone = (status: number) => void;
const STATUS_UNSUCCESSFUL = 0xc0000001;

function onThread(call: ReturnType<typeof fn>, args: unknown[], done: OnThreadDone): void {
  call().async(...args, (error: unknown, status: number) => done(error ? STATUS_UNSUCCESSFUL : status >>> 0));
}

/** NtQueryObject on a pool thread: `memory` must stay allocated until `done` (which may never come). */
export function ntQueryObjectOnThread(handle: FileHandle, cls: number, memory: NativeMemory, done: OnThreadDone): void {
  onThread(queryObjectOnThread, [handle, cls, memory.address, memory.size, null], done);
}

/** FILE_STANDARD_INFORMATION on a pool thread into `memory` (16 bytes IO_STATUS_BLOCK, then 24). */
export function ntQueryStandardInformationOnThread(file: FileHandle, memory: NativeMemory, done: OnThreadDone): void {
  onThread(queryInformationFileOnThread, [file, memory.address, memory.address + 16n, 24, FileStandardInformation], done);
}

/** DeletePending @20 and Directory @21 of the FILE_STANDARD_INFORMATION after the 16-byte IO_STATUS_BLOCK. */
export function parseStandardInformation(bytes: Buffer): { deletePending: boolean; directory: boolean } {
  return { deletePending: bytes[16 + 20] !== 0, directory: bytes[16 + 21] !== 0 };
}

/** GrantedAccess @4 of OBJECT_BASIC_INFORMATION: the rights of the handle queried. */
export function parseGrantedAccess(bytes: Buffer): number {
  return bytes.readUInt32LE(4);
}

// Pure decoders for what is read out of another process: PROCESS_BASIC_INFORMATION, the PEB's
// ProcessParameters pointer, and RTL_USER_PROCESS_PARAMETERS, in the two layouts a 64-bit scanner
// meets. A WOW64 process (32-bit code on 64-bit Windows) has both: the 64-bit PEB and parameters are
// a copy made when the process started, and its 32-bit code (SetCurrentDirectory, SetEnvironment-
// Variable) updates only the 32-bit ones, whose address ProcessWow64Information gives.
import type { UnicodeStringRef } from './handle-table.js';

export const PROCESS_BASIC_INFORMATION_BYTES = 48;

export interface BasicInformation {
  pebAddress: bigint;
  pid: number;
  /** The parent as recorded at creation; the parent may be gone or its pid reused. */
  ppid: number;
}

export function parseBasicInformation(buf: Buffer): BasicInformation {
  return { pebAddress: buf.readBigUInt64LE(8), pid: Number(buf.readBigUInt64LE(32)), ppid: Number(buf.readBigUInt64LE(40)) };
}

/** Where things are in one bitness's PEB and RTL_USER_PROCESS_PARAMETERS. */
export interface ParametersLayout {
  readonly name: 'x64' | 'wow64';
  readonly pointerBytes: 4 | 8;
  /** PEB.ProcessParameters. */
  readonly pebParametersOffset: number;
  /** Enough of the parameters to reach the end of CommandLine. */
  readonly parametersBytes: number;
  readonly currentDirectory: number;
  readonly currentDirectoryHandle: number;
  readonly imagePath: number;
  readonly commandLine: number;
  readonly environment: number;
  /** EnvironmentSize (SIZE_T, Vista and later). */
  readonly environmentSize: number;
}

export const X64_LAYOUT: ParametersLayout = {
  name: 'x64',
  pointerBytes: 8,
  pebParametersOffset: 0x20,
  parametersBytes: 0x80,
  currentDirectory: 0x38,
  currentDirectoryHandle: 0x48,
  imagePath: 0x60,
  commandLine: 0x70,
  environment: 0x80,
  environmentSize: 0x3f0,
};

/** PEB32 and RTL_USER_PROCESS_PARAMETERS32: 4-byte pointers and handles, UNICODE_STRING32 of 8 bytes. */
export const WOW64_LAYOUT: ParametersLayout = {
  name: 'wow64',
  pointerBytes: 4,
  pebParametersOffset: 0x10,
  parametersBytes: 0x48,
  currentDirectory: 0x24,
  currentDirectoryHandle: 0x2c,
  imagePath: 0x38,
  commandLine: 0x40,
  environment: 0x48,
  environmentSize: 0x290,
};

/** ProcessWow64Information's answer: a WOW64 process's PEB32 address picks the 32-bit layout. */
export function layoutOf(wow64PebAddress: bigint): ParametersLayout {
  return wow64PebAddress === 0n ? X64_LAYOUT : WOW64_LAYOUT;
}

export function readPointer(buf: Buffer, at: number, layout: ParametersLayout): bigint {
  return layout.pointerBytes === 8 ? buf.readBigUInt64LE(at) : BigInt(buf.readUInt32LE(at));
}

/** UNICODE_STRING (Length, MaximumLength, then the Buffer pointer, aligned to its size). */
export function readUnicodeStringAt(buf: Buffer, at: number, layout: ParametersLayout): UnicodeStringRef {
  return { lengthBytes: buf.readUInt16LE(at), maximumBytes: buf.readUInt16LE(at + 2), address: readPointer(buf, at + layout.pointerBytes, layout) };
}

export interface ProcessParametersRefs {
  currentDirectory: UnicodeStringRef;
  /** CurrentDirectory.Handle: the process's cwd is an open directory handle, the reason rmdir fails. */
  currentDirectoryHandle: bigint;
  imagePath: UnicodeStringRef;
  commandLine: UnicodeStringRef;
}

export function parseProcessParameters(buf: Buffer, layout: ParametersLayout = X64_LAYOUT): ProcessParametersRefs {
  if (buf.length < layout.parametersBytes)
    throw new RangeError(`RTL_USER_PROCESS_PARAMETERS (${layout.name}) needs ${layout.parametersBytes} bytes, got ${buf.length}`);
  return {
    currentDirectory: readUnicodeStringAt(buf, layout.currentDirectory, layout),
    currentDirectoryHandle: readPointer(buf, layout.currentDirectoryHandle, layout),
    imagePath: readUnicodeStringAt(buf, layout.imagePath, layout),
    commandLine: readUnicodeStringAt(buf, layout.commandLine, layout),
  };
}

/** UTF-16LE bytes read from a remote UNICODE_STRING; odd trailing byte dropped. */
export function decodeUtf16(buf: Buffer): string {
  return buf.toString('utf16le', 0, buf.length & ~1);
}

// Pure decoders for what is read out of another process: PROCESS_BASIC_INFORMATION, the PEB's
// ProcessParameters pointer, and RTL_USER_PROCESS_PARAMETERS (x64 offsets).
import { readUnicodeStringRef, type UnicodeStringRef } from './handle-table.js';

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

/** PEB.ProcessParameters lives at 0x20 on x64. */
export const PEB_PROCESS_PARAMETERS_OFFSET = 0x20;
/** Enough of RTL_USER_PROCESS_PARAMETERS to reach CommandLine (0x70 + 16). */
export const PROCESS_PARAMETERS_BYTES = 0x80;

export interface ProcessParametersRefs {
  currentDirectory: UnicodeStringRef;
  /** CurrentDirectory.Handle: the process's cwd is an open directory handle, the reason rmdir fails. */
  currentDirectoryHandle: bigint;
  imagePath: UnicodeStringRef;
  commandLine: UnicodeStringRef;
}

export function parseProcessParameters(buf: Buffer): ProcessParametersRefs {
  if (buf.length < PROCESS_PARAMETERS_BYTES) throw new RangeError(`RTL_USER_PROCESS_PARAMETERS needs ${PROCESS_PARAMETERS_BYTES} bytes, got ${buf.length}`);
  return {
    currentDirectory: readUnicodeStringRef(buf, 0x38),
    currentDirectoryHandle: buf.readBigUInt64LE(0x48),
    imagePath: readUnicodeStringRef(buf, 0x60),
    commandLine: readUnicodeStringRef(buf, 0x70),
  };
}

/** UTF-16LE bytes read from a remote UNICODE_STRING; odd trailing byte dropped. */
export function decodeUtf16(buf: Buffer): string {
  return buf.toString('utf16le', 0, buf.length & ~1);
}

// Typed Windows failures, read right after the failing call. NTSTATUS values print in hex because
// that is how every Windows reference spells them (0xC0000022, not 3221225506).
import { PlatformError } from '../../core/errors.js';

const NT_STATUS_NAMES: Readonly<Record<number, string>> = {
  0xc0000004: 'STATUS_INFO_LENGTH_MISMATCH',
  0xc0000022: 'STATUS_ACCESS_DENIED',
  0xc0000008: 'STATUS_INVALID_HANDLE',
  0xc000000d: 'STATUS_INVALID_PARAMETER',
  0xc0000003: 'STATUS_INVALID_INFO_CLASS',
  0xc0000002: 'STATUS_NOT_IMPLEMENTED',
  0xc0000023: 'STATUS_BUFFER_TOO_SMALL',
  0x80000005: 'STATUS_BUFFER_OVERFLOW',
  0xc000010a: 'STATUS_PROCESS_IS_TERMINATING',
};

const WIN32_ERROR_NAMES: Readonly<Record<number, string>> = {
  2: 'ERROR_FILE_NOT_FOUND',
  3: 'ERROR_PATH_NOT_FOUND',
  5: 'ERROR_ACCESS_DENIED',
  6: 'ERROR_INVALID_HANDLE',
  32: 'ERROR_SHARING_VIOLATION',
  87: 'ERROR_INVALID_PARAMETER',
  122: 'ERROR_INSUFFICIENT_BUFFER',
  299: 'ERROR_PARTIAL_COPY',
};

/** `0xC0000022`: eight upper-case hex digits, as NTSTATUS values are written everywhere. */
export function formatNtStatus(status: number): string {
  return `0x${(status >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}

export class NtStatusError extends PlatformError {
  override readonly name = 'NtStatusError';
  /** The status as an unsigned 32-bit number (koffi returns NTSTATUS as a signed int). */
  readonly status: number;
  constructor(api: string, status: number) {
    const unsigned = status >>> 0;
    const label = NT_STATUS_NAMES[unsigned];
    super(api, formatNtStatus(unsigned), `${api} failed: ${formatNtStatus(unsigned)}${label ? ` ${label}` : ''}`);
    this.status = unsigned;
  }
}

export class Win32Error extends PlatformError {
  override readonly name = 'Win32Error';
  constructor(
    api: string,
    readonly errorCode: number,
  ) {
    const label = WIN32_ERROR_NAMES[errorCode];
    super(api, errorCode, `${api} failed: error ${errorCode}${label ? ` ${label}` : ''}`);
  }
}

/** NT_SUCCESS(): severity bits 00 (success) or 01 (informational). */
export function ntSuccess(status: number): boolean {
  return status >>> 0 < 0x80000000;
}

export const STATUS_INFO_LENGTH_MISMATCH = 0xc0000004;
export const STATUS_BUFFER_TOO_SMALL = 0xc0000023;
export const STATUS_BUFFER_OVERFLOW = 0x80000005;
export const STATUS_ACCESS_DENIED = 0xc0000022;
export const STATUS_INVALID_INFO_CLASS = 0xc0000003;
export const ERROR_ACCESS_DENIED = 5;
export const ERROR_INVALID_PARAMETER = 87;

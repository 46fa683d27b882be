// The OS errors that mean "something still holds it", by number and name. Anything else (EACCES on
// Linux, EIO, EPIPE...) is a different problem and must not trigger a holder scan.
import type { FailureKind, OsError } from './failure.js';

interface Known {
  error: OsError;
  kind: FailureKind;
}

const known = (system: OsError['system'], name: string, code: number, kind: FailureKind): Known => ({ error: { system, name, code }, kind });

export const ERROR_ACCESS_DENIED = known('win32', 'ERROR_ACCESS_DENIED', 5, 'access-denied-or-delete-pending');
export const ERROR_SHARING_VIOLATION = known('win32', 'ERROR_SHARING_VIOLATION', 32, 'sharing-violation');
export const ERROR_LOCK_VIOLATION = known('win32', 'ERROR_LOCK_VIOLATION', 33, 'lock-violation');
export const ERROR_DIR_NOT_EMPTY = known('win32', 'ERROR_DIR_NOT_EMPTY', 145, 'directory-not-empty');
export const EBUSY = known('errno', 'EBUSY', 16, 'busy');
export const ENOTEMPTY = known('errno', 'ENOTEMPTY', 39, 'directory-not-empty');
/** Node reports Windows' access-denied on unlink/rmdir/rename as EPERM (libuv's mapping of ERROR_ACCESS_DENIED). */
export const EPERM = known('errno', 'EPERM', 1, 'access-denied-or-delete-pending');

const WIN32_BY_CODE = new Map<number, Known>([5, 32, 33, 145].map((c) => [c, byWin32(c)]));

function byWin32(code: number): Known {
  if (code === 5) return ERROR_ACCESS_DENIED;
  if (code === 32) return ERROR_SHARING_VIOLATION;
  if (code === 33) return ERROR_LOCK_VIOLATION;
  return ERROR_DIR_NOT_EMPTY;
}

export function win32ByCode(code: number): Known | undefined {
  return WIN32_BY_CODE.get(code);
}

/** errno numbers as printed by Python/Rust. macOS numbers ENOTEMPTY 66 (Linux 39); EBUSY is 16 on both. */
export function errnoByCode(code: number): Known | undefined {
  if (code === 16) return EBUSY;
  if (code === 39 || code === 66) return ENOTEMPTY;
  return undefined;
}

export function errnoByName(name: string): Known | undefined {
  if (name === 'EBUSY') return EBUSY;
  if (name === 'ENOTEMPTY') return ENOTEMPTY;
  if (name === 'EPERM') return EPERM;
  return undefined;
}

/** HRESULT_FROM_WIN32 as .NET prints it, e.g. `(0x80070020)` for 32 — language-independent. */
export function win32ByHresult(hex: string): Known | undefined {
  const value = Number.parseInt(hex, 16);
  if ((value & 0xffff0000) >>> 0 !== 0x80070000) return undefined;
  return win32ByCode(value & 0xffff);
}

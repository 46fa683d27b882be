// File access masks and share modes as names, and the rule that turns them into WinError 32.
//
// API
//   decodeFileAccess(mask, kind?)    -> every bit by name (`FILE_READ_DATA`, `DELETE`, ...; unknown bits as hex).
//   formatFileAccess(mask, kind?)    -> short form with composites first: `FILE_GENERIC_READ | DELETE`.
//   decodeShareMode(share)           -> `['FILE_SHARE_READ', ...]`, `[]` for an exclusive open.
//   sharingViolation(held, opener)   -> an open with `opener`'s access and share fails with
//                                       ERROR_SHARING_VIOLATION (WinError 32) while `held` is open.
//   blockedOperations(held)          -> which of delete / rename / write / read by another process fail
//                                       that way; `blocks(op, held)` for one of them.
//
// GrantedAccess 0x0012019f is FILE_GENERIC_READ | FILE_GENERIC_WRITE: what every file opened for
// reading and writing carries (`open(p, 'r+')`, a log file, a SQLite database). Old handle tools skip
// handles with exactly this mask to dodge the synchronous-pipe hang in NtQueryObject; that hides real
// file holders, and a pipe with another mask still hangs. holdwatch never filters on it: name queries
// run in a killable worker instead (DESIGN.md, "Platform facts").
//
// The share mode is not in the system handle table (it lives in the kernel's FILE_OBJECT). The backend
// learns it from a probe inside the test process, or infers it: an open with DELETE access and full
// sharing that fails with ERROR_SHARING_VIOLATION proves some handle lacks FILE_SHARE_DELETE.

export const FILE_READ_DATA = 0x0001; // directory: FILE_LIST_DIRECTORY
export const FILE_WRITE_DATA = 0x0002; // directory: FILE_ADD_FILE
export const FILE_APPEND_DATA = 0x0004; // directory: FILE_ADD_SUBDIRECTORY
export const FILE_READ_EA = 0x0008;
export const FILE_WRITE_EA = 0x0010;
export const FILE_EXECUTE = 0x0020; // directory: FILE_TRAVERSE
export const FILE_DELETE_CHILD = 0x0040;
export const FILE_READ_ATTRIBUTES = 0x0080;
export const FILE_WRITE_ATTRIBUTES = 0x0100;
export const DELETE = 0x0001_0000;
export const READ_CONTROL = 0x0002_0000;
export const WRITE_DAC = 0x0004_0000;
export const WRITE_OWNER = 0x0008_0000;
export const SYNCHRONIZE = 0x0010_0000;
export const ACCESS_SYSTEM_SECURITY = 0x0100_0000;
export const MAXIMUM_ALLOWED = 0x0200_0000;
export const GENERIC_ALL = 0x1000_0000;
export const GENERIC_EXECUTE = 0x2000_0000;
export const GENERIC_WRITE = 0x4000_0000;
export const GENERIC_READ = 0x8000_0000;

export const FILE_GENERIC_READ = READ_CONTROL | FILE_READ_DATA | FILE_READ_ATTRIBUTES | FILE_READ_EA | SYNCHRONIZE; // 0x120089
export const FILE_GENERIC_WRITE = READ_CONTROL | FILE_WRITE_DATA | FILE_WRITE_ATTRIBUTES | FILE_WRITE_EA | FILE_APPEND_DATA | SYNCHRONIZE; // 0x120116
export const FILE_GENERIC_EXECUTE = READ_CONTROL | FILE_READ_ATTRIBUTES | FILE_EXECUTE | SYNCHRONIZE; // 0x1200a0
export const FILE_ALL_ACCESS = 0x001f_01ff;

export const FILE_SHARE_READ = 0x1;
export const FILE_SHARE_WRITE = 0x2;
export const FILE_SHARE_DELETE = 0x4;
export const FILE_SHARE_ALL = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

export type HandleKind = 'file' | 'directory';

const SPECIFIC_BITS: readonly [number, string, string][] = [
  [FILE_READ_DATA, 'FILE_READ_DATA', 'FILE_LIST_DIRECTORY'],
  [FILE_WRITE_DATA, 'FILE_WRITE_DATA', 'FILE_ADD_FILE'],
  [FILE_APPEND_DATA, 'FILE_APPEND_DATA', 'FILE_ADD_SUBDIRECTORY'],
  [FILE_READ_EA, 'FILE_READ_EA', 'FILE_READ_EA'],
  [FILE_WRITE_EA, 'FILE_WRITE_EA', 'FILE_WRITE_EA'],
  [FILE_EXECUTE, 'FILE_EXECUTE', 'FILE_TRAVERSE'],
  [FILE_DELETE_CHILD, 'FILE_DELETE_CHILD', 'FILE_DELETE_CHILD'],
  [FILE_READ_ATTRIBUTES, 'FILE_READ_ATTRIBUTES', 'FILE_READ_ATTRIBUTES'],
  [FILE_WRITE_ATTRIBUTES, 'FILE_WRITE_ATTRIBUTES', 'FILE_WRITE_ATTRIBUTES'],
  [DELETE, 'DELETE', 'DELETE'],
  [READ_CONTROL, 'READ_CONTROL', 'READ_CONTROL'],
  [WRITE_DAC, 'WRITE_DAC', 'WRITE_DAC'],
  [WRITE_OWNER, 'WRITE_OWNER', 'WRITE_OWNER'],
  [SYNCHRONIZE, 'SYNCHRONIZE', 'SYNCHRONIZE'],
  [ACCESS_SYSTEM_SECURITY, 'ACCESS_SYSTEM_SECURITY', 'ACCESS_SYSTEM_SECURITY'],
  [MAXIMUM_ALLOWED, 'MAXIMUM_ALLOWED', 'MAXIMUM_ALLOWED'],
  [GENERIC_ALL, 'GENERIC_ALL', 'GENERIC_ALL'],
  [GENERIC_EXECUTE, 'GENERIC_EXECUTE', 'GENERIC_EXECUTE'],
  [GENERIC_WRITE, 'GENERIC_WRITE', 'GENERIC_WRITE'],
  [GENERIC_READ, 'GENERIC_READ', 'GENERIC_READ'],
];

/** Composites in the order they are tried; the bits they share (READ_CONTROL, SYNCHRONIZE) may repeat. */
const COMPOSITES: readonly [number, string][] = [
  [FILE_ALL_ACCESS, 'FILE_ALL_ACCESS'],
  [FILE_GENERIC_READ, 'FILE_GENERIC_READ'],
  [FILE_GENERIC_WRITE, 'FILE_GENERIC_WRITE'],
  [FILE_GENERIC_EXECUTE, 'FILE_GENERIC_EXECUTE'],
];

const hex = (value: number): string => `0x${value.toString(16).padStart(8, '0')}`;

/** Every set bit by name, low bits first; bits with no name come last as one hex value. */
export function decodeFileAccess(mask: number, kind: HandleKind = 'file'): string[] {
  const bits = mask >>> 0;
  const names: string[] = [];
  let known = 0;
  for (const [bit, fileName, dirName] of SPECIFIC_BITS) {
    if ((bits & bit) >>> 0 === bit) {
      names.push(kind === 'directory' ? dirName : fileName);
      known = (known | bit) >>> 0;
    }
  }
  const unknown = (bits & ~known) >>> 0;
  if (unknown !== 0) names.push(hex(unknown));
  return names;
}

/** Composites first when all their bits are present, then what is left: `FILE_GENERIC_READ | DELETE`. */
export function formatFileAccess(mask: number, kind: HandleKind = 'file'): string {
  const bits = mask >>> 0;
  if (bits === 0) return '0';
  const parts: string[] = [];
  let covered = 0;
  for (const [composite, name] of COMPOSITES) {
    if ((bits & composite) >>> 0 !== composite) continue;
    // FILE_ALL_ACCESS already holds every generic composite; do not list them again under it.
    if ((covered & composite) >>> 0 === composite) continue;
    parts.push(name);
    covered = (covered | composite) >>> 0;
  }
  const rest = (bits & ~covered) >>> 0;
  if (rest !== 0) parts.push(...decodeFileAccess(rest, kind));
  return parts.join(' | ');
}

export function decodeShareMode(share: number): string[] {
  const names: string[] = [];
  if (share & FILE_SHARE_READ) names.push('FILE_SHARE_READ');
  if (share & FILE_SHARE_WRITE) names.push('FILE_SHARE_WRITE');
  if (share & FILE_SHARE_DELETE) names.push('FILE_SHARE_DELETE');
  const unknown = (share & ~FILE_SHARE_ALL) >>> 0;
  if (unknown !== 0) names.push(hex(unknown));
  return names;
}

/** An open handle: what it was granted and what it lets others do at the same time. */
export interface OpenHandle {
  access: number;
  share: number;
}

export type FileOperation = 'delete' | 'rename' | 'write' | 'read';

export const FILE_OPERATIONS: readonly FileOperation[] = ['delete', 'rename', 'write', 'read'];

/**
 * How another process opens the file for each operation. DeleteFileW / RemoveDirectoryW and
 * MoveFileExW (the source) open with DELETE and full sharing. Readers and writers are modelled as the
 * C runtime opens files (Python's open(), fopen): sharing read and write but not delete. So a held
 * handle with DELETE access (O_TEMPORARY, Python's NamedTemporaryFile) blocks them too.
 */
const OPERATION_OPENS: Readonly<Record<FileOperation, OpenHandle>> = {
  delete: { access: DELETE | SYNCHRONIZE, share: FILE_SHARE_ALL },
  rename: { access: DELETE | SYNCHRONIZE | FILE_READ_ATTRIBUTES, share: FILE_SHARE_ALL },
  write: { access: FILE_GENERIC_WRITE, share: FILE_SHARE_READ | FILE_SHARE_WRITE },
  read: { access: FILE_GENERIC_READ, share: FILE_SHARE_READ | FILE_SHARE_WRITE },
};

/** Generic rights as the file object type maps them (the handle table already holds mapped rights). */
function mapGeneric(access: number): number {
  let mapped = access & 0x0fff_ffff;
  if (access & GENERIC_READ) mapped |= FILE_GENERIC_READ;
  if (access & GENERIC_WRITE) mapped |= FILE_GENERIC_WRITE;
  if (access & GENERIC_EXECUTE) mapped |= FILE_GENERIC_EXECUTE;
  if (access & GENERIC_ALL) mapped |= FILE_ALL_ACCESS;
  return mapped >>> 0;
}

const READS = FILE_READ_DATA | FILE_EXECUTE;
const WRITES = FILE_WRITE_DATA | FILE_APPEND_DATA;

/**
 * Whether `opener` fails with ERROR_SHARING_VIOLATION while `held` is open: the I/O manager's share
 * check (IoCheckShareAccess), both ways. The new open needs the held handle to
 * share what it asks for, and must itself share what the held handle already uses. Only read/execute,
 * write/append and DELETE take part: a handle holding just attributes or SYNCHRONIZE blocks nothing.
 * A cwd handle (0x00100020 = SYNCHRONIZE | FILE_TRAVERSE, shared read|write) therefore blocks rmdir.
 */
export function sharingViolation(held: OpenHandle, opener: OpenHandle): boolean {
  const a = mapGeneric(held.access);
  const b = mapGeneric(opener.access);
  const takesPart = (access: number): boolean => (access & (READS | WRITES | DELETE)) !== 0;
  if (!takesPart(a) || !takesPart(b)) return false;
  const denies = (access: number, share: number): boolean =>
    ((access & READS) !== 0 && (share & FILE_SHARE_READ) === 0) ||
    ((access & WRITES) !== 0 && (share & FILE_SHARE_WRITE) === 0) ||
    ((access & DELETE) !== 0 && (share & FILE_SHARE_DELETE) === 0);
  return denies(b, held.share) || denies(a, opener.share);
}

/** Whether `op` by another process fails with a sharing violation (WinError 32) while `held` is open. */
export function blocks(op: FileOperation, held: OpenHandle): boolean {
  return sharingViolation(held, OPERATION_OPENS[op]);
}

/**
 * The operations `held` makes fail with WinError 32. An empty list does not mean the folder can go:
 * a file deleted while open may stay listed until its last handle closes (delete pending), so rmdir of
 * its parent fails with ERROR_DIR_NOT_EMPTY, and NTFS refuses to rename a folder with open files below it.
 */
export function blockedOperations(held: OpenHandle): FileOperation[] {
  return FILE_OPERATIONS.filter((op) => blocks(op, held));
}

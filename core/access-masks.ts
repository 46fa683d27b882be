// File access masks as names: what a handle in the system handle table was granted, for the details panel.
//
// API
//   decodeFileAccess(mask, kind?)    -> every bit by name (`FILE_READ_DATA`, `DELETE`, ...; unknown bits as hex).
//   formatFileAccess(mask, kind?)    -> short form with composites first: `FILE_GENERIC_READ | DELETE`.
//
// GrantedAccess 0x0012019f is FILE_GENERIC_READ | FILE_GENERIC_WRITE: what every file opened for
// reading and writing carries (`open(p, 'r+')`, a log file, a SQLite database). Old handle tools skip
// handles with exactly this mask to dodge the synchronous-pipe hang in NtQueryObject; that hides real
// file holders, and a pipe with another mask still hangs. holdwatch never filters on it: name queries
// run in a killable worker instead (DESIGN.md, "Platform facts").

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

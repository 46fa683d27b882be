// How a handle was opened, in one shape for both platforms: Linux open(2) flags as fdinfo shows
// them, Windows GrantedAccess from the handle table. Pure, so both backends and tests share it.
import type { AccessRight, HandleAccess, Holder, HolderKind, PlatformName } from '../contract/holders.js';
import {
  DELETE,
  FILE_APPEND_DATA,
  FILE_EXECUTE,
  FILE_READ_DATA,
  FILE_WRITE_DATA,
  formatFileAccess,
  GENERIC_ALL,
  GENERIC_READ,
  GENERIC_WRITE,
} from './access-masks.js';

/**
 * Why a share mode is not shown. Windows keeps it in the kernel's FILE_OBJECT (SharedRead,
 * SharedWrite, SharedDelete); no user-mode call returns it for another process's handle, and
 * handle.exe reads it through its driver. Opening the file to probe would make holdwatch a holder.
 */
export const WINDOWS_SHARE_UNKNOWN =
  'Windows keeps the share mode in the kernel file object; no user-mode call reads it for another process’s handle (handle.exe uses a driver), and holdwatch never opens the file to probe it.';
export const LINUX_SHARE_NONE =
  'Linux has no share modes: another open, rename or delete of this file is never refused because of this handle (only advisory locks, listed apart).';

// Linux open(2) flags as they stand in f_flags (O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC are cleared after
// the open). x86-64 and most architectures use asm-generic values; arm and arm64 move four of them.
const GENERIC_FLAGS: readonly [number, string][] = [
  [0o2000, 'O_APPEND'],
  [0o4000, 'O_NONBLOCK'],
  [0o4010000, 'O_SYNC'],
  [0o10000, 'O_DSYNC'],
  [0o20000, 'O_ASYNC'],
  [0o40000, 'O_DIRECT'],
  [0o100000, 'O_LARGEFILE'],
  [0o200000, 'O_DIRECTORY'],
  [0o400000, 'O_NOFOLLOW'],
  [0o1000000, 'O_NOATIME'],
  [0o2000000, 'O_CLOEXEC'],
  [0o10000000, 'O_PATH'],
  [0o20000000, 'O_TMPFILE'],
];
const ARM_FLAGS: Readonly<Record<string, number>> = { O_DIRECTORY: 0o40000, O_NOFOLLOW: 0o100000, O_DIRECT: 0o200000, O_LARGEFILE: 0o400000 };
const O_ACCMODE = 3;
const O_PATH = 0o10000000;

const byFlags = new Map<string, HandleAccess>();

/** fdinfo's `flags:` (f_flags) as rights and names; one shared object per value (a scan meets few). */
export function linuxHandleAccess(flags: number, arch = 'x64'): HandleAccess {
  const key = `${flags}/${arch}`;
  let access = byFlags.get(key);
  if (!access) byFlags.set(key, (access = decodeLinuxFlags(flags, arch)));
  return access;
}

function decodeLinuxFlags(flags: number, arch: string): HandleAccess {
  const table = arch === 'arm' || arch === 'arm64' ? GENERIC_FLAGS.map(([bit, name]): [number, string] => [ARM_FLAGS[name] ?? bit, name]) : GENERIC_FLAGS;
  const mode = flags & O_ACCMODE;
  const names = [['O_RDONLY', 'O_WRONLY', 'O_RDWR', 'O_ACCMODE'][mode]!];
  let known = O_ACCMODE;
  for (const [bit, name] of table) {
    if ((flags & bit) !== bit) continue;
    known |= bit;
    // O_SYNC includes O_DSYNC's bit and O_TMPFILE includes O_DIRECTORY's: name the wider one only.
    if ((name === 'O_DSYNC' && (flags & 0o4000000) !== 0) || (name === 'O_DIRECTORY' && (flags & 0o20000000) !== 0)) continue;
    names.push(name);
  }
  const unknown = flags & ~known;
  if (unknown !== 0) names.push(`0${unknown.toString(8)}`);
  const rights: AccessRight[] = flags & O_PATH ? [] : mode === 0 ? ['read'] : mode === 1 ? ['write'] : mode === 2 ? ['read', 'write'] : [];
  return { rights, flags: names.join(' | '), raw: `0${flags.toString(8)}` };
}

// As the I/O manager counts them for share checks (FILE_OBJECT ReadAccess, WriteAccess, DeleteAccess):
// execute/traverse is read access there, which is why a cwd handle (FILE_TRAVERSE) takes part.
const READS = FILE_READ_DATA | FILE_EXECUTE | GENERIC_READ | GENERIC_ALL;
const WRITES = FILE_WRITE_DATA | FILE_APPEND_DATA | GENERIC_WRITE | GENERIC_ALL;
const byMask = new Map<string, HandleAccess>();

/** A handle table row's GrantedAccess as rights and names (memoised: a system has few distinct masks). */
export function windowsHandleAccess(grantedAccess: number, kind: HolderKind): HandleAccess {
  const mask = grantedAccess >>> 0;
  const directory = kind === 'dir' || kind === 'cwd';
  const key = `${mask}/${directory}`;
  let access = byMask.get(key);
  if (!access) {
    const rights: AccessRight[] = [];
    if (mask & READS) rights.push('read');
    if (mask & WRITES) rights.push('write');
    if (mask & (DELETE | GENERIC_ALL)) rights.push('delete');
    access = { rights, flags: formatFileAccess(mask, directory ? 'directory' : 'file'), raw: `0x${mask.toString(16).padStart(8, '0')}` };
    byMask.set(key, access);
  }
  return access;
}

const IMAGE_NO_SHARE = 'A mapped image, not an open handle: no share mode applies (Windows refuses to delete or overwrite an image while it is mapped).';

/** What can honestly be said about a holding's share mode: never a guessed value. */
export function shareModeOf(platform: PlatformName, holder: Pick<Holder, 'handle'>): { share: string[] | null; shareUnknownReason: string } {
  if (platform !== 'win32') return { share: null, shareUnknownReason: LINUX_SHARE_NONE };
  return { share: null, shareUnknownReason: holder.handle === null ? IMAGE_NO_SHARE : WINDOWS_SHARE_UNKNOWN };
}

// Pure Windows path logic: user input -> one canonical Win32 path, kernel <-> DOS names, and the
// case-folded key two paths are compared by. No fs, no `process`: the backend passes what only the
// OS knows (current directory, MSYS root, GetTempPathW, the QueryDosDeviceW table) in `WindowsPathEnv`.
//
// API
//   normalizeWindowsPath(input, env?)  -> canonical Win32 path (`C:\a\b`, `C:\`, `\\server\share\a`).
//                                         Throws BadInputError on empty/NUL/invalid/unresolvable input.
//   hasShortNameSegment(path)          -> true when a segment looks like an 8.3 alias (`RUNNER~1`):
//                                         only GetLongPathNameW can expand it, so the backend must call it.
//   kernelToDos(kernelPath, devices)   -> `C:\x` / `\\server\share\x` for `\Device\...`, `\??\...`,
//                                         `\\?\...` names; null when no drive maps the device.
//   dosToKernel(dosPath, devices)      -> `\Device\HarddiskVolume3\x`, `\Device\Mup\server\share\x`; null if unknown drive.
//   windowsMatchKey(path, env?)        -> the form paths are compared in; every form naming one directory gives one key.
//   isUnderWindows(path, dir, env?)    -> `path` is `dir` or below it, on a separator boundary.
//   foldWindowsCase(text)              -> NTFS-style upper-case folding (see the function for why upper, not lower).
import { BadInputError } from '../../core/errors.js';
import { isUnder, trimTrailingSeparators, WINDOWS_STYLE, type PathStyle } from '../../core/paths.js';

/** QueryDosDeviceW answers, first string only: `{ 'C:': '\\Device\\HarddiskVolume3', 'S:': '\\??\\C:\\work' }`. */
export type DosDeviceTable = Readonly<Record<string, string>>;

export interface WindowsPathEnv {
  /** Absolute Win32 current directory; relative (`a\b`), rooted (`\a`) and drive-relative (`C:a`) input resolve against it. */
  cwd?: string | null;
  /** Git for Windows / MSYS2 installation root (`C:\Program Files\Git`): POSIX paths such as `/usr/x` live under it. */
  msysRoot?: string | null;
  /** What GetTempPathW returns (TMP, else TEMP, else USERPROFILE, else the Windows dir): MSYS's `/tmp` when msysRoot is set. */
  tempDir?: string | null;
  /** Lets keys see through SUBST and mapped network drives; without it drive letters are taken at face value. */
  devices?: DosDeviceTable | null;
}

interface ParsedPath {
  /** `C:` (upper-case letter) or `\\server\share`. */
  root: string;
  segments: string[];
}

const bad = (message: string): BadInputError => new BadInputError(message);

/** Characters Win32 refuses in a file name (`:` only after the drive letter: elsewhere it names a stream). */
const INVALID_NAME_CHARS = /[<>:"|?*\u0000-\u001f]/;
const DRIVE_ABSOLUTE = /^([A-Za-z]):[\\/]/;
const DRIVE_RELATIVE = /^([A-Za-z]):(?![\\/])/;

export function normalizeWindowsPath(input: string, env: WindowsPathEnv = {}): string {
  return formatParsed(parseWindowsPath(input, env));
}

function parseWindowsPath(input: string, env: WindowsPathEnv): ParsedPath {
  if (input.trim() === '') throw bad('empty path');
  if (input.includes('\0')) throw bad('path contains a NUL character');
  // Quotes pasted along with a path are the usual culprit; say so before the path is classified.
  const invalid = /["<>|]/.exec(input);
  if (invalid) throw bad(`invalid character ${invalid[0]} in path: ${input}`);
  // Exactly `\\?\` skips Win32 normalisation (slashes are not separators there); `//?/` does not.
  if (input.startsWith('\\\\?\\')) return parseVerbatim(input.slice(4), input);
  if (/^[\\/]{2}[?.][\\/]/.test(input)) return parseDevicePath(input.slice(4), input);
  if (/^[\\/]{2}/.test(input)) return parseUnc(input.slice(2), input);
  const absolute = DRIVE_ABSOLUTE.exec(input);
  if (absolute) return resolveSegments(driveRoot(absolute[1]!), [], input.slice(3));
  const driveRelative = DRIVE_RELATIVE.exec(input);
  if (driveRelative) return parseDriveRelative(driveRelative[1]!, input.slice(2), env);
  if (input.startsWith('/')) return parsePosixAbsolute(input, env);
  const base = requireCwd(env, input);
  // `\x` is rooted on the current directory's drive (or share); `x` is relative to the directory itself.
  return input.startsWith('\\') ? resolveSegments(base.root, [], input) : resolveSegments(base.root, base.segments, input);
}

function driveRoot(letter: string): string {
  return `${letter.toUpperCase()}:`;
}

function requireCwd(env: WindowsPathEnv, input: string): ParsedPath {
  if (!env.cwd) throw bad(`relative path with no current directory to resolve it: ${input}`);
  return parseWindowsPath(env.cwd, {});
}

/** `C:x` is relative to C:'s current directory; Windows' hidden per-drive `=C:` variables are not consulted. */
function parseDriveRelative(letter: string, rest: string, env: WindowsPathEnv): ParsedPath {
  const base = requireCwd(env, `${letter}:${rest}`);
  const root = driveRoot(letter);
  return base.root === root ? resolveSegments(root, base.segments, rest) : resolveSegments(root, [], rest);
}

/** `\\.\C:\x`, `//?/C:/x`: device paths that Win32 still normalises. */
function parseDevicePath(rest: string, input: string): ParsedPath {
  const drive = /^([A-Za-z]):(?:[\\/]|$)/.exec(rest);
  if (drive) return resolveSegments(driveRoot(drive[1]!), [], rest.slice(2));
  if (/^UNC[\\/]/i.test(rest)) return parseUnc(rest.slice(4), input);
  throw bad(`unsupported device path (expected a drive or UNC after the prefix): ${input}`);
}

function parseUnc(rest: string, input: string): ParsedPath {
  const [server, share, ...tail] = rest.split(/[\\/]/);
  if (!server || !share) throw bad(`UNC path needs a server and a share: ${input}`);
  for (const name of [server, share]) {
    if (INVALID_NAME_CHARS.test(name) || name === '.' || name === '..') throw bad(`invalid server or share name in ${input}`);
  }
  return resolveSegments(`\\\\${server}\\${share}`, [], tail.join('\\'));
}

/**
 * `\\?\C:\x` and `\\?\UNC\server\share\x` reach the file system as typed: no `.`/`..` evaluation, `/` is
 * an ordinary (invalid) character, trailing dots and spaces are kept. We refuse what Windows would refuse.
 */
function parseVerbatim(rest: string, input: string): ParsedPath {
  let root: string;
  let tail: string;
  const drive = /^([A-Za-z]):(?:\\|$)/.exec(rest);
  if (drive) {
    root = driveRoot(drive[1]!);
    tail = rest.slice(3);
  } else if (/^UNC\\/i.test(rest)) {
    const [server, share, ...more] = rest.slice(4).split('\\');
    if (!server || !share) throw bad(`UNC path needs a server and a share: ${input}`);
    root = `\\\\${server}\\${share}`;
    tail = more.join('\\');
  } else {
    throw bad(`unsupported \\\\?\\ path (expected a drive or UNC): ${input}`);
  }
  // Whole-string checks rather than per segment: kernel names come through here once per new handle.
  const body = tail.endsWith('\\') ? tail.slice(0, -1) : tail;
  if (body === '') return { root, segments: [] };
  if (/(?:^|\\)\.{0,2}(?:\\|$)/.test(body)) throw bad(`\\\\?\\ paths are used verbatim; empty, '.' and '..' segments cannot appear in ${input}`);
  if (/[<>:"|?*\u0000-\u001f/]/.test(body)) throw bad(`invalid character in ${input}`);
  return { root, segments: body.split('\\') };
}

/**
 * POSIX-looking input, resolved the way Git for Windows' MSYS2 runtime (msys-2.0.dll) does. The POSIX
 * path is normalised first (`/etc/../tmp` is `/tmp`), then looked up:
 * - Its /etc/fstab sets the cygdrive prefix to `/` (`none / cygdrive binary,posix=0,noacl,user`,
 *   msys2/MSYS2-packages filesystem/fstab), so `/c` and `/c/x` are drive C: whatever the root holds.
 *   Cygwin's default prefix `/cygdrive/c` is accepted too (paths pasted from Cygwin).
 * - `/` is the installation root (the folder above usr\bin), and `/bin` is an alias of `/usr/bin`
 *   (msys2-runtime: "/bin alias of /usr/bin", msys2/msys2-runtime#266).
 * - `/tmp`: git-extra's post-install appends `none /tmp usertemp binary,posix=0,noacl 0 0` to /etc/fstab
 *   (git-for-windows/build-extra git-extra/git-extra.install.in), and the runtime resolves `usertemp`
 *   with GetTempPathW (winsup/cygwin/mount.cc, from_fstab_line). So /tmp is `env.tempDir` when given,
 *   else `<root>\tmp` (plain MSYS2 and old portable Git have no usertemp line). `posix=0` makes the
 *   mount point match case-insensitively (`/TMP`). The runtime fixes the mount when the first MSYS
 *   process of a session starts, so a TEMP changed later is not what that session's /tmp shows.
 * Without msysRoot, `/x` means what it means to a native Windows program: `\x` on the current drive.
 */
function parsePosixAbsolute(input: string, env: WindowsPathEnv): ParsedPath {
  const posix: string[] = [];
  for (const part of input.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') posix.pop();
    else posix.push(part);
  }
  const [first = '', second = ''] = posix;
  const tail = (skip: number): string => posix.slice(skip).join('\\') + (/[\\/]$/.test(input) ? '\\' : '');
  if (/^[A-Za-z]$/.test(first)) return resolveSegments(driveRoot(first), [], tail(1));
  if (first === 'cygdrive' && /^[A-Za-z]$/.test(second)) return resolveSegments(driveRoot(second), [], tail(2));
  if (!env.msysRoot) return resolveSegments(requireCwd(env, input).root, [], tail(0));
  if (first.toLowerCase() === 'tmp' && env.tempDir) {
    const temp = parseWindowsPath(env.tempDir, {});
    return resolveSegments(temp.root, temp.segments, tail(1));
  }
  const root = parseWindowsPath(env.msysRoot, {});
  return resolveSegments(root.root, first === 'bin' ? [...root.segments, 'usr'] : root.segments, tail(0));
}

/**
 * Win32 normalisation of the part after the root (RtlGetFullPathName_U; checked against Wine's
 * GetFullPathNameW): separators, `.`, `..` (never above the root), then trimming: the final segment
 * loses all trailing dots and spaces (`C:\work. .` is `C:\work`) unless a separator follows it; any
 * other segment loses one trailing dot (`C:\a.\b` is `C:\a\b`).
 */
function resolveSegments(root: string, base: readonly string[], rest: string): ParsedPath {
  const segments = [...base];
  const endsWithSeparator = /[\\/]$/.test(rest);
  const parts = rest.split(/[\\/]+/).filter((part) => part !== '');
  parts.forEach((part, index) => {
    if (part === '.') return;
    if (part === '..') {
      segments.pop();
      return;
    }
    const isFinal = index === parts.length - 1 && !endsWithSeparator;
    const name = isFinal ? part.replace(/[. ]+$/, '') : part.replace(/\.$/, '');
    if (name === '') return;
    // `...\` would become a folder literally named `..`: no canonical form can say that.
    if (name === '..') throw bad(`ambiguous path segment '${part}'`);
    if (INVALID_NAME_CHARS.test(name)) throw bad(`invalid character in path segment '${name}'`);
    segments.push(name);
  });
  return { root, segments };
}

/**
 * A name Win32 normalisation would rewrite (any segment ending in a dot, the last one ending in a
 * space) is only reachable verbatim, so it keeps the `\\?\` prefix: the result normalises to itself.
 */
function formatParsed({ root, segments }: ParsedPath): string {
  const isDrive = root.length === 2;
  const body = segments.length === 0 ? (isDrive ? `${root}\\` : root) : `${root}\\${segments.join('\\')}`;
  const last = segments.length - 1;
  const verbatim = segments.some((segment, index) => segment.endsWith('.') || (index === last && segment.endsWith(' ')));
  if (!verbatim) return body;
  return isDrive ? `\\\\?\\${body}` : `\\\\?\\UNC\\${body.slice(2)}`;
}

/**
 * 8.3 aliases (`RUNNER~1`, `PROGRA~1`, `AB12C~1.TXT`) are typical on CI (TEMP under `C:\Users\RUNNER~1`).
 * Only the OS knows which long name an alias stands for, so the backend calls GetLongPathNameW when this
 * says true. A long name may also look like this (`v~1`); GetLongPathNameW returns it unchanged then.
 */
export function hasShortNameSegment(path: string): boolean {
  return path.split(/[\\/]/).some(isShortNameAlias);
}

const SHORT_NAME_CHAR = "[A-Za-z0-9!#$%&'()@^_`{}\\-]";
const SHORT_NAME = new RegExp(`^(${SHORT_NAME_CHAR}{1,6}~[0-9]{1,6})(\\.${SHORT_NAME_CHAR}{1,3})?$`);

function isShortNameAlias(segment: string): boolean {
  const match = SHORT_NAME.exec(segment);
  return match !== null && match[1]!.length <= 8;
}

// --- kernel <-> DOS ---------------------------------------------------------------------------

const KERNEL_PREFIX = /^\\(?:Device|\?\?|GLOBAL\?\?|DosDevices)\\/i;
/** `\??\C:\x`, `\GLOBAL??\C:\x`, `\DosDevices\C:\x`: the object manager's view of DOS names (Wine answers these). */
const DOS_DEVICES_PREFIX = /^\\(?:\?\?|GLOBAL\?\?|DosDevices)\\/i;
/** UNC redirectors: `\Device\Mup\...`, `\Device\LanmanRedirector\...`, `\Device\WebDavRedirector\...`. */
const REDIRECTOR_PREFIX = /^\\Device\\(?:Mup|[A-Za-z]*Redirector)\\/i;

/** True for names only the kernel uses (`\Device\...`, `\??\...`): they must be mapped before display. */
export function isKernelPath(path: string): boolean {
  return KERNEL_PREFIX.test(path);
}

/**
 * A kernel or `\\?\` name as users know it. `\Device\HarddiskVolume3\x` becomes `C:\x` through the
 * device table (longest device match, then lowest letter); network names become UNC, which, unlike a
 * mapped drive letter, means the same thing in every logon session. Null when no drive maps the device.
 */
export function kernelToDos(kernelPath: string, devices: DosDeviceTable): string | null {
  // Kernel names, like `\\?\` ones, are verbatim: parse them that way so `foo.` stays `foo.`.
  if (/^\\\\[?.]\\/.test(kernelPath)) return dosOrNull(kernelPath);
  const dosDevices = DOS_DEVICES_PREFIX.exec(kernelPath);
  if (dosDevices) return dosOrNull(`\\\\?\\${kernelPath.slice(dosDevices[0].length)}`);
  const unc = redirectorToUnc(kernelPath);
  if (unc !== null) return unc;
  let best: { drive: string; target: string } | null = null;
  for (const [drive, target] of deviceEntries(devices)) {
    if (!/^\\Device\\/i.test(target) || !hasDevicePrefix(kernelPath, target)) continue;
    if (!best || target.length > best.target.length) best = { drive, target };
  }
  if (!best) return null;
  return dosOrNull(`\\\\?\\${best.drive}${kernelPath.slice(best.target.length)}`);
}

/** `isUnder` for a device name, without lower-casing the whole (long) handle name. */
function hasDevicePrefix(kernelPath: string, device: string): boolean {
  if (kernelPath.length < device.length) return false;
  if (kernelPath.length > device.length && kernelPath[device.length] !== '\\') return false;
  const head = kernelPath.slice(0, device.length);
  return head === device || head.toLowerCase() === device.toLowerCase();
}

function dosOrNull(path: string): string | null {
  try {
    return normalizeWindowsPath(path);
  } catch {
    return null;
  }
}

/**
 * `\Device\Mup\server\share\x`, and the forms mapped drives leave in handle names:
 * `\Device\Mup\;LanmanRedirector\;Z:000000000001a2b3\server\share\x`, `\Device\LanmanRedirector\;Z:...\server\share\x`.
 * Components starting with `;` are the redirector's bookkeeping, not part of the UNC name.
 */
function redirectorToUnc(kernelPath: string): string | null {
  const prefix = REDIRECTOR_PREFIX.exec(kernelPath);
  if (!prefix) return null;
  const parts = kernelPath.slice(prefix[0].length).split('\\');
  while (parts[0]?.startsWith(';')) parts.shift();
  if (!parts[0] || !parts[1]) return null;
  return dosOrNull(`\\\\?\\UNC\\${parts.join('\\')}`);
}

/** Drive table entries with keys as `C:`, sorted so ties between drives resolve to the lowest letter. */
function deviceEntries(devices: DosDeviceTable): readonly [string, string][] {
  // Handle names are keyed one by one in the scan loop: prepare each table once, not once per name.
  let entries = preparedTables.get(devices);
  if (!entries) {
    entries = Object.entries(devices)
      .map(([key, target]): [string, string] => [driveRoot(key[0] ?? ''), trimTrailingSeparators(target, WINDOWS_STYLE)])
      .filter(([key]) => /^[A-Z]:$/.test(key))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    preparedTables.set(devices, entries);
  }
  return entries;
}

const preparedTables = new WeakMap<DosDeviceTable, readonly [string, string][]>();

/** A drive whose target is another DOS path (SUBST) or a network redirector: keys look through it. */
function isIndirectDrive(dos: string, devices: DosDeviceTable): boolean {
  if (!/^[A-Za-z]:/.test(dos)) return false;
  const drive = driveRoot(dos[0]!);
  const target = deviceEntries(devices).find(([letter]) => letter === drive)?.[1];
  return target !== undefined && (DOS_DEVICES_PREFIX.test(target) || REDIRECTOR_PREFIX.test(target));
}

/**
 * The kernel name for a DOS path, for matching against handle names. SUBST drives (`\??\C:\work`) are
 * followed to their target; mapped drives become `\Device\Mup\server\share`. Null for a drive the table
 * does not know. The backend prefers the name it gets by opening the directory; this is the fallback.
 */
export function dosToKernel(dosPath: string, devices: DosDeviceTable): string | null {
  return dosToKernelAt(dosPath, devices, 0);
}

function dosToKernelAt(dosPath: string, devices: DosDeviceTable, depth: number): string | null {
  const parsed = parseWindowsPath(dosPath, {});
  if (parsed.root.startsWith('\\\\')) return joinKernel(`\\Device\\Mup\\${parsed.root.slice(2)}`, parsed.segments);
  const target = deviceEntries(devices).find(([drive]) => drive === parsed.root)?.[1];
  if (target === undefined) return null;
  // A SUBST drive targets another DOS path (`\??\C:\work`); a mapped drive targets a redirector. Follow
  // either; the depth limit keeps a cyclic table (only a made-up one can be) from recursing forever.
  const isSubst = DOS_DEVICES_PREFIX.test(target);
  const followed = isSubst ? kernelToDos(target, {}) : redirectorToUnc(target);
  if (isSubst || followed !== null) {
    if (followed === null || depth > 8) return null;
    const inner = parseWindowsPath(followed, {});
    return dosToKernelAt(formatParsed({ ...inner, segments: [...inner.segments, ...parsed.segments] }), devices, depth + 1);
  }
  return joinKernel(target, parsed.segments);
}

/** A volume's root directory is `\Device\HarddiskVolume3\` (without the slash it names the volume itself). */
function joinKernel(device: string, segments: readonly string[]): string {
  return segments.length === 0 ? `${device}\\` : `${device}\\${segments.join('\\')}`;
}

// --- comparison -------------------------------------------------------------------------------

/**
 * Upper-case folding the way NTFS compares names: both names go through the volume's $UpCase table,
 * a 1:1 map of UTF-16 code units. Hence upper, not lower: lower-casing would equate the Kelvin sign
 * (U+212A) with `K` and the Ohm sign (U+2126) with `Ω`, which NTFS keeps apart. A character whose
 * upper case is longer (`ß` -> `SS`) or lies outside the BMP is kept as is, as the table does.
 * `toUpperCase` is locale-independent (no Turkish dotted I). Rare letters where $UpCase and Unicode
 * disagree may still differ; kernel names from the same volume compare byte-equal anyway.
 */
export function foldWindowsCase(text: string): string {
  if (/^[\u0000-\u007f]*$/.test(text)) return text.toUpperCase();
  let folded = '';
  for (const char of text) {
    const upper = char.length === 1 ? char.toUpperCase() : char;
    folded += upper.length === 1 ? upper : char;
  }
  return folded;
}

/**
 * The comparison key: any form (user input, `\\?\`, kernel name) -> canonical DOS path -> folded.
 * With a device table, SUBST and mapped drives are seen through, so `S:\x` and `C:\work\x` agree.
 * A kernel name no drive maps keeps its kernel form, so two such names still compare with each other.
 */
export function windowsMatchKey(path: string, env: WindowsPathEnv = {}): string {
  const devices = env.devices ?? {};
  const dos = isKernelPath(path) ? kernelToDos(path, devices) : normalizeWindowsPath(path, env);
  if (dos === null) return foldWindowsCase(trimTrailingSeparators(path, WINDOWS_STYLE));
  if (!env.devices || !isIndirectDrive(dos, devices)) return foldWindowsCase(dos);
  const kernel = dosToKernel(dos, devices);
  return foldWindowsCase((kernel !== null ? kernelToDos(kernel, devices) : null) ?? dos);
}

/** Keys are already folded, so the prefix test compares them exactly (paths.ts would lower-case them again). */
const FOLDED_KEY_STYLE: PathStyle = { ...WINDOWS_STYLE, caseInsensitive: false };

/** `path` is `dir` or lies below it. `C:\tmp\ab` is not under `C:\tmp\a`: the boundary must be a separator. */
export function isUnderWindows(path: string, dir: string, env: WindowsPathEnv = {}): boolean {
  return isUnder(windowsMatchKey(path, env), windowsMatchKey(dir, env), FOLDED_KEY_STYLE);
}

/** CreateDirectoryW's limit: shorter paths work with every Win32 call, longer ones need `\\?\`. */
const MAX_DIRECTORY_PATH = 248;

/**
 * The `\\?\` form Win32 calls need for a path past MAX_PATH (260; 248 for a directory) where long
 * paths are not enabled for the process: `C:\x` -> `\\?\C:\x`, `\\server\share\x` -> `\\?\UNC\server\share\x`.
 * Shorter paths, and paths already in that form, are returned as they are. `path` is normalized.
 */
export function extendedLengthPath(path: string): string {
  if (path.length < MAX_DIRECTORY_PATH || path.startsWith('\\\\?\\')) return path;
  if (path.startsWith('\\\\')) return `\\\\?\\UNC\\${path.slice(2)}`;
  return `\\\\?\\${path}`;
}

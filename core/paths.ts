// Pure path logic shared by every platform: "is under" on a separator boundary, display paths,
// and the "(deleted)" suffix Linux appends to unlinked targets. No fs access here: resolving a
// watched directory (symlinks, kernel names) is the backend's job.

export interface PathStyle {
  sep: '/' | '\\';
  caseInsensitive: boolean;
}

export const POSIX_STYLE: PathStyle = { sep: '/', caseInsensitive: false };
export const WINDOWS_STYLE: PathStyle = { sep: '\\', caseInsensitive: true };

/** The style a watched directory's paths compare in (a WatchDir says whether it is case-insensitive). */
export function pathStyleOf(dir: { caseInsensitive: boolean }): PathStyle {
  return dir.caseInsensitive ? WINDOWS_STYLE : POSIX_STYLE;
}

/** Drops trailing separators, except the one that is the root itself (`/`, `C:\`, `\\?\C:\`). */
export function trimTrailingSeparators(path: string, style: PathStyle): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === style.sep && !isRootOnly(path.slice(0, end), style)) end--;
  return path.slice(0, end);
}

function isRootOnly(path: string, style: PathStyle): boolean {
  return style.sep === '/' ? path === '/' : /^(\\\\\?\\)?[A-Za-z]:\\$/.test(path);
}

/**
 * `path` with `.` and `..` folded and repeated separators dropped (`/` also taken as `\` in the
 * Windows style); a leading double separator (a UNC path's) is kept. Names only: no link is resolved.
 */
export function foldDots(path: string, style: PathStyle): string {
  const sep = style.sep;
  const unified = sep === '\\' ? path.replace(/\//g, '\\') : path;
  const parts: string[] = [];
  for (const part of unified.split(sep)) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  const head = unified.startsWith(sep + sep) ? sep + sep : unified.startsWith(sep) ? sep : '';
  return head + parts.join(sep);
}

/**
 * True when `path` is `dir` itself or lies below it. `/tmp/a` is not under `/tmp/ab`'s sibling `/tmp/a`
 * by prefix alone: the character after the prefix must be a separator.
 */
export function isUnder(path: string, dir: string, style: PathStyle): boolean {
  // Upper-case folding, as NTFS compares names (lower-casing would fold the Kelvin sign into k).
  const p = style.caseInsensitive ? path.toUpperCase() : path;
  const d = style.caseInsensitive ? dir.toUpperCase() : dir;
  if (!p.startsWith(d)) return false;
  if (p.length === d.length) return true;
  return d.endsWith(style.sep) || p[d.length] === style.sep;
}

/** Path of `path` relative to `dir` for display: `.` for the dir itself, `a/b` below it. */
export function relativeDisplay(path: string, dir: string, style: PathStyle): string {
  if (!isUnder(path, dir, style)) return path;
  if (path.length === dir.length) return '.';
  const rest = path.slice(dir.length);
  return rest.startsWith(style.sep) ? rest.slice(1) : rest;
}

const DELETED_SUFFIX = ' (deleted)';

/**
 * Linux marks an fd or mapping whose file was unlinked by appending " (deleted)" to the path it
 * shows. A file may really be named "x (deleted)", so the caller confirms (link count 0, inode
 * mismatch) before believing it; `suffixed` only says the text carried the mark.
 */
export function splitDeletedSuffix(target: string): { path: string; suffixed: boolean } {
  return target.endsWith(DELETED_SUFFIX) ? { path: target.slice(0, -DELETED_SUFFIX.length), suffixed: true } : { path: target, suffixed: false };
}

// A path typed relative, resolved against the directory holdwatch was started in — in the form, so
// the user sees where it points before anything uses it, and the host gets it absolute.

/** `/x`, `C:\x`, `C:/x`, `\\server\x`: already absolute. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/** `path` against `base` (`.` and `..` folded), in `base`'s separator; absolute or empty paths as they are. */
export function resolvePath(base: string, path: string): string {
  const typed = path.trim();
  if (!typed || isAbsolutePath(typed) || !base) return typed;
  const sep = base.includes('\\') && !base.includes('/') ? '\\' : '/';
  const parts = base.split(/[\\/]/);
  const root = parts[0] === '' ? '' : parts[0]!; // '' for POSIX's `/`, `C:` on Windows
  const segments = parts.slice(1).filter(Boolean);
  for (const segment of typed.split(/[\\/]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `${root}${sep}${segments.join(sep)}`;
}

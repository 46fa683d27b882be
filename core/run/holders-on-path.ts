// Which holders a path's failure concerns: the same comparison for the supervisor's failure scans and
// the recorder's reading of them.
import type { Holder } from '../../contract/holders.js';
import { isUnder, POSIX_STYLE, WINDOWS_STYLE } from '../paths.js';

/**
 * Which of the holders present at a failure blocked it: those under the path the message names when
 * any are, else all of them (the message may name the path in another form).
 */
export function blockersOf(holders: readonly Holder[], failurePath: string | null): Holder[] {
  if (failurePath === null) return [...holders];
  const under = holdersOnPath(holders, failurePath);
  return under.length > 0 ? under : [...holders];
}

/** The holders of `path` itself or of something below it (a Windows-shaped path compares case-insensitively). */
export function holdersOnPath<T extends Holder>(holders: readonly T[], path: string): T[] {
  return holders.filter((h) => isOnOrUnder(h.path, path));
}

/** `path` is `dir` or lies below it; Windows-shaped paths compare case-insensitively. */
export function isOnOrUnder(path: string, dir: string): boolean {
  return isUnder(path, dir, /^[A-Za-z]:[\\/]|^\\\\/.test(dir) ? WINDOWS_STYLE : POSIX_STYLE);
}

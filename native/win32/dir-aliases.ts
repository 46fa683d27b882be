// A watched dir spelled two ways. A Windows handle keeps the name it was opened by: a test whose
// TEMP is `C:\Users\RUNNER~1\AppData\Local\Temp` (GitHub's runners) holds
// `\Device\HarddiskVolume3\Users\RUNNER~1\...`, while the watched dir resolves to its long name, and
// the two never met: the main CI case showed no holder. The dir's 8.3 short form is matched too, and a
// holder found through it is shown under the dir's long, displayed form. Pure: names in, names out.
import { isUnder, type PathStyle } from '../../core/paths.js';
import type { WatchDir } from '../../core/platform.js';
import type { PathKey } from './path-keys.js';

/** Match keys are already case-folded (core/windows-paths foldWindowsCase): compare them exactly. */
export const FOLDED_KEYS: PathStyle = { sep: '\\', caseInsensitive: false };

/**
 * The kernel name of `shortDos` (the dir's 8.3 form, `C:\Users\RUNNER~1\x`), from the dir's long DOS
 * form and its kernel name (`\Device\HarddiskVolume3\Users\runneradmin\x`); null when it is the same
 * dir spelled the same, or the forms do not line up (not a drive-letter path).
 */
export function shortKernelName(display: string, kernel: string, shortDos: string | null): string | null {
  if (!shortDos || shortDos.toLowerCase() === display.toLowerCase()) return null;
  if (!/^[A-Za-z]:\\/.test(display) || !/^[A-Za-z]:\\/.test(shortDos)) return null;
  const rest = display.slice(2);
  if (!kernel.toLowerCase().endsWith(rest.toLowerCase())) return null;
  return kernel.slice(0, kernel.length - rest.length) + shortDos.slice(2);
}

/** One spelling of a watched dir: its key, and the displayed prefix a name under it starts with. */
export interface DirSpelling {
  key: string;
  /** The DOS form of this spelling (`C:\Users\RUNNER~1\x`), replaced by the dir's display. */
  display: string;
}

export interface SpelledDir {
  dir: WatchDir;
  /** The long form first, then the aliases. */
  spellings: readonly DirSpelling[];
}

/** Each spelling of `dir`, keyed by `keyOf` (the scan's PathKeys). */
export function spellingsOf(dir: WatchDir, keyOf: (name: string) => PathKey): SpelledDir {
  const spellings = [dir.matchPrefix, ...(dir.aliasPrefixes ?? [])].map((name) => {
    const keyed = keyOf(name);
    return { key: keyed.key, display: keyed.display };
  });
  return { dir, spellings };
}

/** The watched dir `name` lies under, and the name as shown there (the long form); null when under none. */
export function underWatchedDir(name: PathKey, dir: SpelledDir): string | null {
  const [long, ...aliases] = dir.spellings;
  if (long && isUnder(name.key, long.key, FOLDED_KEYS)) return name.display;
  for (const alias of aliases) {
    if (!isUnder(name.key, alias.key, FOLDED_KEYS)) continue;
    return dir.dir.display + name.display.slice(alias.display.length);
  }
  return null;
}

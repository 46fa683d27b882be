// A watched dir spelled more than one way. A Windows handle keeps the name it was opened by: a test
// whose TEMP is `C:\Users\RUNNER~1\AppData\Local\Temp` (GitHub's runners) holds
// `\Device\HarddiskVolume3\Users\RUNNER~1\...`, while the watched dir resolves to its long name.
// Each component may come long or 8.3 independently: `mkdtemp` under a short TEMP makes a long leaf
// below short parents (`RUNNER~1\...\Temp\hw-smoke-AbCdEf`), so names are matched component by
// component, and a holder found through any mix is shown under the dir's long, displayed form.
// Pure: names in, names out.
import { isUnder, type PathStyle } from '../../core/paths.js';
import type { WatchDir } from '../../core/platform.js';
import type { PathKey } from './path-keys.js';

/** Match keys are already case-folded (windows-paths.ts foldWindowsCase): compare them exactly. */
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
  /** Each component of the dir's key with its every spelling (long, 8.3); empty without aliases. */
  components: readonly (readonly string[])[];
}

/** Each spelling of `dir`, keyed by `keyOf` (the scan's PathKeys). */
export function spellingsOf(dir: WatchDir, keyOf: (name: string) => PathKey): SpelledDir {
  const spellings = [dir.matchPrefix, ...(dir.aliasPrefixes ?? [])].map((name) => {
    const keyed = keyOf(name);
    return { key: keyed.key, display: keyed.display };
  });
  return { dir, spellings, components: componentSpellings(spellings.map((spelling) => spelling.key)) };
}

/**
 * The spellings of a scan's dirs, kept while the dirs (compared by content: a source on a worker thread
 * gets new objects every scan) and the drive table are the last scan's, so a steady poll spells nothing.
 */
export class SpelledDirs {
  private dirs: readonly WatchDir[] = [];
  private tableVersion = NaN;
  private spelled: readonly SpelledDir[] = [];
  private joined = '';

  /** `dirs` spelled by `keyOf`, whose keys follow drive table `tableVersion`. */
  of(dirs: readonly WatchDir[], tableVersion: number, keyOf: (name: string) => PathKey): readonly SpelledDir[] {
    if (tableVersion === this.tableVersion && sameDirs(dirs, this.dirs)) return this.spelled;
    this.spelled = dirs.map((dir) => spellingsOf(dir, keyOf));
    this.joined = this.spelled.flatMap((d) => d.spellings.map((s) => s.key)).join('\0');
    this.dirs = dirs;
    this.tableVersion = tableVersion;
    return this.spelled;
  }

  /** Every spelling's key of the last `of`, joined: a result matched against other keys is stale. */
  get key(): string {
    return this.joined;
  }
}

/** The same dirs as far as spelling and display go. */
function sameDirs(a: readonly WatchDir[], b: readonly WatchDir[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.matchPrefix !== y.matchPrefix || x.display !== y.display) return false;
    const xs = x.aliasPrefixes ?? [];
    const ys = y.aliasPrefixes ?? [];
    if (xs.length !== ys.length || xs.some((alias, k) => alias !== ys[k])) return false;
  }
  return true;
}

const SEP = '\\';

/** Per component, the spellings the keys give it; empty when no alias lines up with the long key. */
function componentSpellings(keys: readonly string[]): string[][] {
  const [long, ...aliases] = keys.map((key) => key.split(SEP));
  if (!long || aliases.length === 0) return [];
  // 8.3 names replace a component, never add or remove one: an alias of another length is no mix.
  const lined = aliases.filter((parts) => parts.length === long.length);
  if (lined.length === 0) return [];
  return long.map((part, index) => [...new Set([part, ...lined.map((parts) => parts[index]!)])]);
}

/** `name` (already found under no single spelling) under a mix of the dir's spellings, shown long. */
function underMixedSpelling(name: PathKey, dir: SpelledDir): string | null {
  const { components } = dir;
  if (components.length === 0) return null;
  const parts = name.key.split(SEP);
  if (parts.length < components.length) return null;
  if (!components.every((spellings, index) => spellings.includes(parts[index]!))) return null;
  const below = parts.length - components.length;
  if (below === 0) return dir.dir.display;
  // The display may name the volume differently from the key (a SUBST drive): count from the end.
  const shown = name.display.split(SEP);
  return [dir.dir.display.replace(/\\$/, ''), ...shown.slice(shown.length - below)].join(SEP);
}

/** The watched dir `name` lies under, and the name as shown there (the long form); null when under none. */
export function underWatchedDir(name: PathKey, dir: SpelledDir): string | null {
  const [long, ...aliases] = dir.spellings;
  if (long && isUnder(name.key, long.key, FOLDED_KEYS)) return name.display;
  for (const alias of aliases) {
    if (!isUnder(name.key, alias.key, FOLDED_KEYS)) continue;
    return dir.dir.display + name.display.slice(alias.display.length);
  }
  return underMixedSpelling(name, dir);
}

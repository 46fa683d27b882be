// The watched dir under its 8.3 alias, in the names real Windows gives: GitHub's runners set
// TEMP=C:\Users\RUNNER~1\AppData\Local\Temp, the tests' handles keep that spelling, and the watched dir
// resolves to C:\Users\runneradmin\... Wine does not give Windows' names: proven by these fixtures only.
import { describe, expect, it } from 'vitest';
import type { WatchDir } from '../../core/platform.js';
import { shortKernelName, SpelledDirs, spellingsOf, underWatchedDir } from './dir-aliases.js';
import { computeKey } from './path-keys.js';

const DRIVES = { 'C:': '\\Device\\HarddiskVolume3' };
const keyOf = (name: string) => computeKey(name, DRIVES);

const LONG_DOS = 'C:\\Users\\runneradmin\\AppData\\Local\\Temp';
const LONG_KERNEL = '\\Device\\HarddiskVolume3\\Users\\runneradmin\\AppData\\Local\\Temp';
const SHORT_DOS = 'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp';

describe('shortKernelName', () => {
  it("gives the kernel name of the dir's 8.3 form", () => {
    expect(shortKernelName(LONG_DOS, LONG_KERNEL, SHORT_DOS)).toBe('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp');
  });

  it('none when the short form is the same name (no 8.3 names on the volume), unknown, or not on a drive', () => {
    expect(shortKernelName(LONG_DOS, LONG_KERNEL, 'c:\\users\\RUNNERADMIN\\appdata\\local\\temp')).toBeNull();
    expect(shortKernelName(LONG_DOS, LONG_KERNEL, null)).toBeNull();
    expect(shortKernelName('\\\\server\\share\\x', '\\Device\\Mup\\server\\share\\x', '\\\\server\\share\\X~1')).toBeNull();
  });
});

/** TEMP as GitHub's runners give it: the long form watched, its 8.3 form an alias. */
const TEMP: WatchDir = {
  input: 'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp',
  display: LONG_DOS,
  matchPrefix: LONG_KERNEL,
  caseInsensitive: true,
  aliasPrefixes: [shortKernelName(LONG_DOS, LONG_KERNEL, SHORT_DOS)!],
};

describe('underWatchedDir', () => {
  const dir = TEMP;
  const spelled = spellingsOf(dir, keyOf);

  it('finds a handle opened through the alias, and shows it under the long form', () => {
    const held = keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\pytest-of-runneradmin\\pytest-0\\test_db0\\db.sqlite');
    expect(underWatchedDir(held, spelled)).toBe('C:\\Users\\runneradmin\\AppData\\Local\\Temp\\pytest-of-runneradmin\\pytest-0\\test_db0\\db.sqlite');
  });

  it('finds the long spelling as before, and nothing beside the dir', () => {
    expect(underWatchedDir(keyOf(`${LONG_KERNEL}\\x.log`), spelled)).toBe(`${LONG_DOS}\\x.log`);
    expect(underWatchedDir(keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp2\\x.log'), spelled)).toBeNull();
    expect(underWatchedDir(keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~2\\AppData\\Local\\Temp\\x.log'), spelled)).toBeNull();
  });

  it('a dir without aliases matches as it always did', () => {
    const plain = spellingsOf({ ...dir, aliasPrefixes: undefined }, keyOf);
    expect(underWatchedDir(keyOf(`${SHORT_DOS.replace('C:', '\\Device\\HarddiskVolume3')}\\x.log`), plain)).toBeNull();
  });
});

describe('underWatchedDir, a subdir of an 8.3 TEMP (mkdtemp under a short TEMP)', () => {
  // The watched dir is long; the alias the volume gives it is short in every component; the test's
  // handle mixes them: short user folder, long leaf (Python's and Node's mkdtemp under TEMP=RUNNER~1).
  const LONG = 'C:\\Users\\runneradmin\\AppData\\Local\\Temp\\hw-smoke-AbCdEf';
  const KERNEL = '\\Device\\HarddiskVolume3\\Users\\runneradmin\\AppData\\Local\\Temp\\hw-smoke-AbCdEf';
  const SHORT = 'C:\\Users\\RUNNER~1\\AppData\\Local\\Temp\\HW-SMO~1';
  const dir: WatchDir = {
    input: LONG,
    display: LONG,
    matchPrefix: KERNEL,
    caseInsensitive: true,
    aliasPrefixes: [shortKernelName(LONG, KERNEL, SHORT)!],
  };
  const spelled = spellingsOf(dir, keyOf);

  it('finds a handle with a short user folder and a long leaf, shown under the long form', () => {
    const held = keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\hw-smoke-AbCdEf\\held-by-smoke.txt');
    expect(underWatchedDir(held, spelled)).toBe(`${LONG}\\held-by-smoke.txt`);
  });

  it('finds the other mix (long user folder, short leaf) and the dir itself', () => {
    const held = keyOf('\\Device\\HarddiskVolume3\\Users\\runneradmin\\AppData\\Local\\Temp\\HW-SMO~1\\sub\\x.db');
    expect(underWatchedDir(held, spelled)).toBe(`${LONG}\\sub\\x.db`);
    expect(underWatchedDir(keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\hw-smoke-AbCdEf'), spelled)).toBe(LONG);
  });

  it('a component spelled neither way, or a sibling leaf, is not under it', () => {
    expect(underWatchedDir(keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~2\\AppData\\Local\\Temp\\hw-smoke-AbCdEf\\x'), spelled)).toBeNull();
    expect(underWatchedDir(keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\hw-smoke-AbCdEg\\x'), spelled)).toBeNull();
    expect(underWatchedDir(keyOf('\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\hw-smoke-AbCdEfG\\x'), spelled)).toBeNull();
  });
});

describe('SpelledDirs', () => {
  const dir = TEMP;
  const counting = () => {
    const names: string[] = [];
    return { names, keyOf: (name: string) => (names.push(name), keyOf(name)) };
  };

  it('spells the same dirs once, even as new objects (a source on a worker thread gets a copy every scan)', () => {
    const spelled = new SpelledDirs();
    const { names, keyOf: counted } = counting();
    const first = spelled.of([dir], 1, counted);
    expect(spelled.of([structuredClone(dir)], 1, counted)).toBe(first);
    expect(names).toEqual([dir.matchPrefix, ...dir.aliasPrefixes!]);
    expect(first).toEqual([spellingsOf(dir, keyOf)]);
    expect(spelled.key).toBe([keyOf(LONG_KERNEL).key, keyOf(dir.aliasPrefixes![0]!).key].join('\0'));
  });

  it('spells again for another dir, another alias, another display, or another drive table', () => {
    const spelled = new SpelledDirs();
    const { names, keyOf: counted } = counting();
    spelled.of([dir], 1, counted);
    const other = { ...dir, matchPrefix: `${LONG_KERNEL}\\sub`, aliasPrefixes: undefined };
    const changes: WatchDir[][] = [[other], [dir], [{ ...dir, aliasPrefixes: [`${LONG_KERNEL}2`] }], [{ ...dir, display: `${LONG_DOS}2` }], [dir, other]];
    for (const dirs of changes) {
      const before = names.length;
      expect(spelled.of(dirs, 1, counted).map((d) => d.dir)).toEqual(dirs);
      expect(names.length).toBeGreaterThan(before);
    }
    const before = names.length;
    spelled.of([dir, other], 2, counted);
    expect(names.length).toBe(before + 3);
  });
});

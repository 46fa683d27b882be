// Byte-exact tables for windows-paths.ts. The strings are written as Windows shows them; a
// TypeScript '\\' is one backslash.
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../core/errors.js';
import {
  extendedLengthPath,
  dosToKernel,
  foldWindowsCase,
  hasShortNameSegment,
  isKernelPath,
  isUnderWindows,
  kernelToDos,
  normalizeWindowsPath,
  windowsMatchKey,
  type DosDeviceTable,
  type WindowsPathEnv,
} from './windows-paths.js';

const GIT = 'C:\\Program Files\\Git';
const TEMP = 'C:\\Users\\runner\\AppData\\Local\\Temp';
const CWD = 'C:\\work\\repo';
const SHELL: WindowsPathEnv = { cwd: CWD, msysRoot: GIT, tempDir: TEMP };

/** As QueryDosDeviceW answers: two volumes whose names share a prefix, a SUBST drive, a mapped share. */
const DEVICES: DosDeviceTable = {
  'C:': '\\Device\\HarddiskVolume3',
  'D:': '\\Device\\HarddiskVolume31',
  's:': '\\??\\C:\\work',
  'Z:': '\\Device\\LanmanRedirector\\;Z:000000000001a2b3\\fileserver\\builds',
};

describe('normalizeWindowsPath', () => {
  const cases: [input: string, env: WindowsPathEnv, expected: string][] = [
    // drive paths
    ['C:\\work\\repo', {}, 'C:\\work\\repo'],
    ['c:\\work\\repo', {}, 'C:\\work\\repo'],
    ['C:/work/repo', {}, 'C:\\work\\repo'],
    ['c:/work/repo/', {}, 'C:\\work\\repo'],
    ['C:\\work\\repo\\\\', {}, 'C:\\work\\repo'],
    ['C:\\work\\\\\\repo', {}, 'C:\\work\\repo'],
    ['C:\\work/repo\\/sub', {}, 'C:\\work\\repo\\sub'],
    ['C:\\work\\.\\repo', {}, 'C:\\work\\repo'],
    ['C:\\work\\tmp\\..\\repo', {}, 'C:\\work\\repo'],
    ['C:\\..\\..\\work', {}, 'C:\\work'],
    ['C:\\', {}, 'C:\\'],
    ['C:/', {}, 'C:\\'],
    ['C:\\work\\..', {}, 'C:\\'],
    ['C:\\work.', {}, 'C:\\work'],
    ['C:\\work . .', {}, 'C:\\work'],
    // Trimming as Wine's GetFullPathNameW does it (cmd's %~f): final segment all dots and spaces, others one dot.
    ['C:\\a\\...', {}, 'C:\\a'],
    ['C:\\a\\ .', {}, 'C:\\a'],
    ['C:\\a\\b...', {}, 'C:\\a\\b'],
    ['C:\\.\\.', {}, 'C:\\'],
    ['C:\\a.\\b', {}, 'C:\\a\\b'],
    ['C:\\a.\\', {}, 'C:\\a'],
    ['C:\\a \\b', {}, 'C:\\a \\b'],
    ['C:\\a\\. \\b', {}, 'C:\\a\\. \\b'],
    // Names only a verbatim path can reach keep the prefix, so the result normalises to itself.
    ['C:\\a..\\b', {}, '\\\\?\\C:\\a.\\b'],
    ['C:\\a \\', {}, '\\\\?\\C:\\a '],
    ['\\\\?\\C:\\a \\b', {}, 'C:\\a \\b'],
    ['\\\\server\\share\\a.\\b..\\', {}, '\\\\?\\UNC\\server\\share\\a\\b.'],
    ['C:\\Users\\RUNNER~1\\AppData', {}, 'C:\\Users\\RUNNER~1\\AppData'],
    ['C:\\Ünïcode\\Ωmega', {}, 'C:\\Ünïcode\\Ωmega'],
    // \\?\ (verbatim) and \\.\ (device) prefixes
    ['\\\\?\\C:\\work\\repo', {}, 'C:\\work\\repo'],
    ['\\\\?\\c:\\work\\repo\\', {}, 'C:\\work\\repo'],
    ['\\\\?\\C:', {}, 'C:\\'],
    ['\\\\?\\C:\\work.', {}, '\\\\?\\C:\\work.'],
    ['\\\\?\\UNC\\server\\share\\x', {}, '\\\\server\\share\\x'],
    ['\\\\?\\unc\\server\\share', {}, '\\\\server\\share'],
    ['\\\\.\\C:\\a\\..\\b', {}, 'C:\\b'],
    ['//?/C:/work/repo', {}, 'C:\\work\\repo'],
    ['\\\\.\\UNC\\server\\share\\x\\.', {}, '\\\\server\\share\\x'],
    // UNC
    ['\\\\server\\share\\x\\', {}, '\\\\server\\share\\x'],
    ['//server/share/x', {}, '\\\\server\\share\\x'],
    ['\\\\server\\share', {}, '\\\\server\\share'],
    ['\\\\server\\share\\', {}, '\\\\server\\share'],
    ['\\\\server\\share\\..\\..', {}, '\\\\server\\share'],
    // MSYS / Cygwin
    ['/c/Users/runner', SHELL, 'C:\\Users\\runner'],
    ['/C/Users', SHELL, 'C:\\Users'],
    ['/c', SHELL, 'C:\\'],
    ['/c/', {}, 'C:\\'],
    ['/d/data', {}, 'D:\\data'],
    ['/cygdrive/d/data', SHELL, 'D:\\data'],
    ['/cygdrive/c', {}, 'C:\\'],
    ['/tmp/pytest-of-runner', SHELL, `${TEMP}\\pytest-of-runner`],
    ['/tmp', SHELL, TEMP],
    ['/TMP/x', SHELL, `${TEMP}\\x`],
    ['/etc/../tmp/./x', SHELL, `${TEMP}\\x`],
    ['/c/../tmp/x', SHELL, `${TEMP}\\x`],
    ['/tmp/x', { msysRoot: GIT }, `${GIT}\\tmp\\x`],
    ['/tmpfoo/x', SHELL, `${GIT}\\tmpfoo\\x`],
    ['/usr/bin', SHELL, `${GIT}\\usr\\bin`],
    ['/bin', SHELL, `${GIT}\\usr\\bin`],
    ['/binary', SHELL, `${GIT}\\binary`],
    ['/', SHELL, GIT],
    ['/tmp/x', { msysRoot: 'c:/msys64/', tempDir: null }, 'C:\\msys64\\tmp\\x'],
    ['/Users/x', { cwd: CWD }, 'C:\\Users\\x'],
    ['/tmp/x', { cwd: 'D:\\build' }, 'D:\\tmp\\x'],
    // relative, rooted and drive-relative, against the current directory
    ['work\\sub', { cwd: CWD }, 'C:\\work\\repo\\work\\sub'],
    ['.', { cwd: CWD }, CWD],
    ['..\\other', { cwd: CWD }, 'C:\\work\\other'],
    ['sub/dir/', { cwd: 'c:/work/repo/' }, 'C:\\work\\repo\\sub\\dir'],
    ['\\data', { cwd: CWD }, 'C:\\data'],
    ['\\data', { cwd: '\\\\srv\\sh\\dir' }, '\\\\srv\\sh\\data'],
    ['C:data', { cwd: CWD }, 'C:\\work\\repo\\data'],
    ['c:..', { cwd: CWD }, 'C:\\work'],
    ['D:data', { cwd: CWD }, 'D:\\data'],
    ['D:', { cwd: CWD }, 'D:\\'],
  ];
  it.each(cases)('%j -> %j', (input, env, expected) => {
    expect(normalizeWindowsPath(input, env)).toBe(expected);
  });

  it('returns canonical paths that normalise to themselves', () => {
    for (const [input, env] of cases) {
      const once = normalizeWindowsPath(input, env);
      expect(normalizeWindowsPath(once)).toBe(once);
    }
  });

  const badInputs: [input: string, env: WindowsPathEnv, message: RegExp][] = [
    ['', SHELL, /empty/],
    ['   ', SHELL, /empty/],
    ['C:\\a\u0000b', SHELL, /NUL/],
    ['work\\sub', {}, /relative/],
    ['.', { msysRoot: GIT }, /relative/],
    ['\\rooted', {}, /relative/],
    ['C:rel', {}, /relative/],
    ['/Users/x', {}, /relative/],
    ['\\\\server', {}, /server and a share/],
    ['//server/', {}, /server and a share/],
    ['\\\\?\\UNC\\server', {}, /server and a share/],
    ['"C:\\work"', {}, /invalid character/],
    ['C:\\work\\a|b', {}, /invalid character/],
    ['C:\\work\\file.txt:stream', {}, /invalid character/],
    ['C:\\work\\a*', {}, /invalid character/],
    ['C:\\work\\tab\there', {}, /invalid character/],
    ['\\\\?\\C:\\a\\..\\b', {}, /verbatim/],
    ['C:\\a\\...\\b', {}, /ambiguous/],
    ['\\\\?\\C:\\a\\\\b', {}, /verbatim/],
    ['\\\\?\\C:\\a/b', {}, /invalid character/],
    ['\\\\?\\Volume{0b1c2d3e-0000-0000-0000-100000000000}\\', {}, /drive or UNC/],
    ['\\\\.\\PIPE\\holdwatch', {}, /drive or UNC/],
    ['work', { cwd: 'relative\\cwd' }, /relative/],
  ];
  it.each(badInputs)('rejects %j', (input, env, message) => {
    let caught: unknown;
    try {
      normalizeWindowsPath(input, env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BadInputError);
    const text = (caught as Error).message;
    expect(text).toMatch(message);
    // The CLI prints it as its one line on stderr.
    expect(text).not.toContain('\n');
  });
});

describe('extendedLengthPath', () => {
  const deep = (root: string) => `${root}\\${'d'.repeat(60)}\\${'e'.repeat(60)}\\${'f'.repeat(60)}\\${'g'.repeat(60)}`;
  it('gives a path past 248 characters its \\\\?\\ form, a UNC one \\\\?\\UNC\\', () => {
    expect(extendedLengthPath(deep('C:\\work'))).toBe(`\\\\?\\${deep('C:\\work')}`);
    expect(extendedLengthPath(deep('\\\\server\\share'))).toBe(`\\\\?\\UNC\\${deep('server\\share')}`);
  });
  it('leaves short paths and \\\\?\\ paths as they are', () => {
    expect(extendedLengthPath('C:\\work\\x')).toBe('C:\\work\\x');
    expect(extendedLengthPath(`\\\\?\\${deep('C:\\work')}`)).toBe(`\\\\?\\${deep('C:\\work')}`);
  });
});

describe('hasShortNameSegment', () => {
  const cases: [path: string, expected: boolean][] = [
    ['C:\\Users\\RUNNER~1\\AppData\\Local\\Temp', true],
    ['C:\\PROGRA~1\\Git', true],
    ['C:\\PROGRA~2', true],
    ['c:\\users\\runner~1', true],
    ['C:\\x\\AB12C~1.TXT', true],
    ['D:\\a\\DOCUM~12', true],
    ['C:\\x\\A~123456', true],
    ['/c/Users/RUNNER~1/x', true],
    ['C:\\Users\\runneradmin\\AppData', false],
    ['C:\\work\\my~file~name', false],
    ['C:\\work\\TOOLONG~1', false],
    ['D:\\a\\DOCUME~12', false], // 9 characters: Windows shortens the base as the number grows (DOCUM~12)
    ['C:\\x\\A~1234567', false],
    ['C:\\x\\~1', false],
    ['C:\\x\\ABC~1.LONG', false],
    ['C:\\x\\ABC~', false],
    ['C:\\x\\ABC~X', false],
  ];
  it.each(cases)('%j -> %s', (path, expected) => {
    expect(hasShortNameSegment(path)).toBe(expected);
  });
});

describe('kernelToDos', () => {
  const cases: [kernel: string, expected: string | null][] = [
    ['\\Device\\HarddiskVolume3\\work\\repo', 'C:\\work\\repo'],
    ['\\device\\harddiskvolume3\\work', 'C:\\work'],
    ['\\Device\\HarddiskVolume3', 'C:\\'],
    ['\\Device\\HarddiskVolume3\\', 'C:\\'],
    // HarddiskVolume31 starts with HarddiskVolume3: the boundary must be a separator.
    ['\\Device\\HarddiskVolume31\\data', 'D:\\data'],
    ['\\Device\\HarddiskVolume9\\x', null],
    ['\\Device\\NamedPipe\\holdwatch', null],
    // Kernel names are verbatim: a trailing dot is part of the name.
    ['\\Device\\HarddiskVolume3\\work\\file.', '\\\\?\\C:\\work\\file.'],
    ['\\Device\\Mup\\fileserver\\builds\\x', '\\\\fileserver\\builds\\x'],
    ['\\Device\\Mup\\;LanmanRedirector\\;Z:000000000001a2b3\\fileserver\\builds\\x', '\\\\fileserver\\builds\\x'],
    ['\\Device\\LanmanRedirector\\;Z:000000000001a2b3\\fileserver\\builds\\x\\', '\\\\fileserver\\builds\\x'],
    ['\\Device\\Mup\\fileserver', null],
    // Wine's NtQueryObject(ObjectNameInformation) answers in \??\ form.
    ['\\??\\Z:\\tmp\\x', 'Z:\\tmp\\x'],
    ['\\??\\c:\\tmp', 'C:\\tmp'],
    ['\\??\\UNC\\fileserver\\builds\\x', '\\\\fileserver\\builds\\x'],
    ['\\GLOBAL??\\C:\\x', 'C:\\x'],
    ['\\DosDevices\\C:\\x', 'C:\\x'],
    // GetFinalPathNameByHandleW(VOLUME_NAME_DOS) answers in \\?\ form.
    ['\\\\?\\C:\\x', 'C:\\x'],
    ['\\\\?\\UNC\\fileserver\\builds\\x', '\\\\fileserver\\builds\\x'],
  ];
  it.each(cases)('%j -> %j', (kernel, expected) => {
    expect(kernelToDos(kernel, DEVICES)).toBe(expected);
  });

  it('prefers the lowest drive letter when two drives name one volume', () => {
    const table = { 'M:': '\\Device\\HarddiskVolume3', 'C:': '\\Device\\HarddiskVolume3' };
    expect(kernelToDos('\\Device\\HarddiskVolume3\\x', table)).toBe('C:\\x');
  });

  it('recognises kernel names', () => {
    expect(['\\Device\\X\\y', '\\??\\C:\\x', '\\GLOBAL??\\C:\\x'].map(isKernelPath)).toEqual([true, true, true]);
    expect(['C:\\Device\\x', '\\\\?\\C:\\x', '\\Devices\\x', '/Device/x'].map(isKernelPath)).toEqual([false, false, false, false]);
  });
});

describe('dosToKernel', () => {
  const cases: [dos: string, expected: string | null][] = [
    ['C:\\work\\repo', '\\Device\\HarddiskVolume3\\work\\repo'],
    ['c:/work/repo/', '\\Device\\HarddiskVolume3\\work\\repo'],
    ['C:\\', '\\Device\\HarddiskVolume3\\'],
    ['D:\\data', '\\Device\\HarddiskVolume31\\data'],
    ['S:\\repo', '\\Device\\HarddiskVolume3\\work\\repo'],
    ['S:\\', '\\Device\\HarddiskVolume3\\work'],
    ['Z:\\nightly', '\\Device\\Mup\\fileserver\\builds\\nightly'],
    ['\\\\fileserver\\builds\\nightly', '\\Device\\Mup\\fileserver\\builds\\nightly'],
    ['\\\\?\\C:\\x', '\\Device\\HarddiskVolume3\\x'],
    ['Q:\\x', null],
  ];
  it.each(cases)('%j -> %j', (dos, expected) => {
    expect(dosToKernel(dos, DEVICES)).toBe(expected);
  });

  it('gives up on a SUBST cycle instead of recursing forever', () => {
    expect(dosToKernel('A:\\x', { 'A:': '\\??\\B:\\', 'B:': '\\??\\A:\\' })).toBeNull();
  });

  it('round-trips volume names through DOS', () => {
    for (const kernel of ['\\Device\\HarddiskVolume3\\work\\repo', '\\Device\\HarddiskVolume31\\data', '\\Device\\Mup\\fileserver\\builds\\x']) {
      expect(dosToKernel(kernelToDos(kernel, DEVICES)!, DEVICES)).toBe(kernel);
    }
  });
});

describe('windowsMatchKey', () => {
  const env: WindowsPathEnv = { cwd: 'C:\\Users\\runner', msysRoot: GIT, tempDir: TEMP, devices: DEVICES };
  const groups: Record<string, string[]> = {
    // Every form a user, a shell, Wine or the kernel may use for the pytest temp root.
    'C:\\USERS\\RUNNER\\APPDATA\\LOCAL\\TEMP\\PYTEST-OF-RUNNER': [
      'C:\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner',
      'c:\\users\\RUNNER\\appdata\\local\\temp\\PYTEST-OF-RUNNER\\',
      'C:/Users/runner/AppData/Local/Temp/pytest-of-runner/',
      'C:\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner.',
      'C:\\Users\\runner\\AppData\\Local\\Temp\\sub\\..\\pytest-of-runner',
      '\\\\?\\C:\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner',
      '\\\\?\\c:\\USERS\\runner\\AppData\\Local\\Temp\\pytest-of-runner\\',
      '\\\\.\\c:\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner',
      '//?/C:/Users/runner/AppData/Local/Temp/pytest-of-runner',
      '/c/Users/runner/AppData/Local/Temp/pytest-of-runner',
      '/cygdrive/c/Users/runner/AppData/Local/Temp/pytest-of-runner',
      '/tmp/pytest-of-runner',
      '/TMP/pytest-of-runner/',
      '/etc/../tmp/./pytest-of-runner',
      'AppData\\Local\\Temp\\pytest-of-runner',
      '.\\AppData\\Local\\Temp\\x\\..\\pytest-of-runner',
      '\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner',
      'C:AppData\\Local\\Temp\\pytest-of-runner',
      '\\Device\\HarddiskVolume3\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner',
      '\\??\\C:\\Users\\runner\\AppData\\Local\\Temp\\pytest-of-runner',
    ],
    // SUBST S: -> C:\work
    'C:\\WORK\\REPO': ['S:\\repo', 's:/repo/', '/s/repo', 'C:\\work\\repo', '\\Device\\HarddiskVolume3\\work\\repo'],
    // net use Z: \\fileserver\builds
    '\\\\FILESERVER\\BUILDS\\NIGHTLY': [
      'Z:\\nightly',
      '\\\\fileserver\\builds\\nightly',
      '//FileServer/Builds/nightly/',
      '\\\\?\\UNC\\fileserver\\builds\\nightly',
      '\\Device\\Mup\\fileserver\\builds\\nightly',
      '\\Device\\Mup\\;LanmanRedirector\\;Z:000000000001a2b3\\FileServer\\Builds\\nightly',
      '\\??\\UNC\\fileserver\\builds\\nightly',
    ],
  };
  for (const [key, forms] of Object.entries(groups)) {
    it.each(forms)(`%j -> ${key.replace(/\\/g, '\\\\')}`, (form) => {
      expect(windowsMatchKey(form, env)).toBe(key);
    });
  }

  it('keeps drive letters at face value without a device table', () => {
    expect(windowsMatchKey('S:\\repo')).toBe('S:\\REPO');
    expect(windowsMatchKey('\\Device\\HarddiskVolume9\\x\\')).toBe('\\DEVICE\\HARDDISKVOLUME9\\X');
  });

  const distinct: [a: string, b: string][] = [
    ['C:\\tmp\\a', 'C:\\tmp\\ab'],
    ['C:\\work', 'D:\\work'],
    ['\\\\server\\share', '\\\\server\\share2'],
    ['C:\\K', 'C:\\\u212a'], // Kelvin sign: NTFS upcases k to K, not to the Kelvin sign
    ['C:\\\u03a9', 'C:\\\u2126'], // Greek capital omega vs Ohm sign
    ['C:\\straße', 'C:\\STRASSE'], // ß has no one-character upper case
    ['C:\\\u{10428}', 'C:\\\u{10400}'], // Deseret: outside the BMP, NTFS's $UpCase table does not fold it
    ['\\Device\\HarddiskVolume3\\x', '\\Device\\HarddiskVolume31\\x'],
  ];
  it.each(distinct)('%j and %j differ', (a, b) => {
    expect(windowsMatchKey(a, { devices: DEVICES })).not.toBe(windowsMatchKey(b, { devices: DEVICES }));
  });

  const folded: [a: string, b: string][] = [
    ['C:\\Ünïcode', 'c:\\ünÏCODE'],
    ['C:\\αβγ', 'C:\\ΑΒΓ'],
    ['C:\\проект', 'C:\\ПРОЕКТ'],
    ['C:\\ǆ', 'C:\\Ǆ'],
  ];
  it.each(folded)('%j and %j agree', (a, b) => {
    expect(windowsMatchKey(a)).toBe(windowsMatchKey(b));
  });

  it('folds without changing length', () => {
    const text = 'aß\u212a\u{10428}ﬁİı';
    expect(foldWindowsCase(text)).toHaveLength(text.length);
    expect(foldWindowsCase('c:\\work')).toBe('C:\\WORK');
  });
});

describe('isUnderWindows', () => {
  const env: WindowsPathEnv = { msysRoot: GIT, tempDir: TEMP, devices: DEVICES };
  const cases: [path: string, dir: string, expected: boolean][] = [
    ['C:\\tmp\\ab', 'C:\\tmp\\a', false],
    ['C:\\tmp\\a.b', 'C:\\tmp\\a', false],
    ['C:\\tmp\\a b', 'C:\\tmp\\a', false],
    ['C:\\tmp\\a\\b', 'C:\\tmp\\a', true],
    ['C:\\tmp\\a', 'C:\\tmp\\a', true],
    ['c:/TMP/A/', 'C:\\tmp\\a', true],
    ['C:\\tmp', 'C:\\tmp\\a', false],
    ['/tmp/ab', '/tmp/a', false],
    ['/tmp/a/x', '/tmp/a', true],
    [`${TEMP}\\a\\f.txt`, '/tmp/a', true],
    [`${TEMP}b\\a`, '/tmp', false],
    ['C:\\tmp\\a', 'C:\\', true],
    ['D:\\tmp', 'C:\\', false],
    ['\\\\server\\share2\\x', '\\\\server\\share', false],
    ['\\\\server\\share\\x', '\\\\server\\share', true],
    ['\\\\server\\share\\x', '\\\\server\\share\\', true],
    ['\\Device\\HarddiskVolume31\\x', 'C:\\', false],
    ['\\Device\\HarddiskVolume3\\tmp\\a\\f.txt', '/c/tmp/a', true],
    ['\\Device\\HarddiskVolume3\\tmp\\ab', 'C:\\tmp\\a', false],
    ['\\??\\Z:\\tmp\\hw\\f', 'Z:\\tmp\\hw', true],
    ['\\Device\\Mup\\fileserver\\builds\\x\\y', 'Z:\\x', true],
    ['\\Device\\HarddiskVolume9\\x\\y', '\\Device\\HarddiskVolume9\\x', true],
    ['\\Device\\HarddiskVolume9\\xy', '\\Device\\HarddiskVolume9\\x', false],
    // paths.ts would lower-case the keys again and equate the Kelvin sign with k.
    ['C:\\\u212a\\x', 'C:\\k', false],
  ];
  it.each(cases)('%j under %j -> %s', (path, dir, expected) => {
    expect(isUnderWindows(path, dir, env)).toBe(expected);
  });
});

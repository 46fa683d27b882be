// Every form that names one directory gives one Win32 path (the pure part lives in
// windows-paths.ts; this checks the backend's use of it), and the Git for Windows root is
// found from PATH the way MSYS path conversion needs it.
import { describe, expect, it } from 'vitest';
import { findMsysRoot, toWin32Path } from './win32-path-input.js';

describe('toWin32Path', () => {
  const env = { cwd: 'D:\\work', msysRoot: 'C:\\Program Files\\Git', tempDir: 'C:\\Users\\me\\AppData\\Local\\Temp\\' };
  it.each([
    ['C:\\Users\\me\\proj', 'C:\\Users\\me\\proj'],
    ['C:/Users/me/proj', 'C:\\Users\\me\\proj'],
    ['C:\\Users\\me\\proj\\', 'C:\\Users\\me\\proj'],
    ['\\\\?\\C:\\Users\\me\\proj', 'C:\\Users\\me\\proj'],
    ['/c/Users/me/proj', 'C:\\Users\\me\\proj'],
    ['/cygdrive/c/Users/me/proj', 'C:\\Users\\me\\proj'],
    ['/tmp/proj', 'C:\\Users\\me\\AppData\\Local\\Temp\\proj'],
    ['/usr/share', 'C:\\Program Files\\Git\\usr\\share'],
    ['\\\\?\\UNC\\server\\share\\dir', '\\\\server\\share\\dir'],
    ['\\\\server\\share\\dir', '\\\\server\\share\\dir'],
    ['proj', 'D:\\work\\proj'],
    ['..\\other', 'D:\\other'],
  ])('%s -> %s', (input, expected) => {
    expect(toWin32Path(input, env)).toBe(expected);
  });

  it('without a Git root, /tmp is \\tmp on the current drive (what Wine shows: Z:\\tmp is Linux /tmp)', () => {
    expect(toWin32Path('/tmp/x', { cwd: 'Z:\\work' })).toBe('Z:\\tmp\\x');
  });
});

describe('findMsysRoot', () => {
  const installed = new Set(['C:\\Program Files\\Git\\usr\\bin\\msys-2.0.dll']);
  const exists = (path: string) => installed.has(path);

  it.each([
    ['C:\\Windows\\system32;C:\\Program Files\\Git\\cmd', 'C:\\Program Files\\Git'],
    ['C:\\Program Files\\Git\\mingw64\\bin;C:\\Program Files\\Git\\usr\\bin', 'C:\\Program Files\\Git'],
    ['C:\\Program Files\\Git\\usr\\bin\\', 'C:\\Program Files\\Git'],
    ['C:\\Program Files\\Git\\bin', 'C:\\Program Files\\Git'],
  ])('%s -> %s', (path, root) => {
    expect(findMsysRoot(path, exists)).toBe(root);
  });

  it('is null when no entry has msys-2.0.dll beside it', () => {
    expect(findMsysRoot('C:\\Windows\\system32;C:\\tools\\cmd;relative\\usr\\bin', exists)).toBeNull();
    expect(findMsysRoot('', exists)).toBeNull();
  });
});

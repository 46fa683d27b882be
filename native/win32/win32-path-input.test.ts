// The interim input conversion (until core/windows-paths.ts lands): forms that name one directory
// give one Win32 path.
import { describe, expect, it } from 'vitest';
import { toWin32Path } from './win32-path-input.js';

describe('toWin32Path (seam for core/windows-paths.ts)', () => {
  it.each([
    ['C:\\Users\\me\\proj', 'C:\\Users\\me\\proj'],
    ['C:/Users/me/proj', 'C:\\Users\\me\\proj'],
    ['C:\\Users\\me\\proj\\', 'C:\\Users\\me\\proj'],
    ['\\\\?\\C:\\Users\\me\\proj', 'C:\\Users\\me\\proj'],
    ['/c/Users/me/proj', 'C:\\Users\\me\\proj'],
    ['\\\\?\\UNC\\server\\share\\dir', '\\\\server\\share\\dir'],
    ['\\\\server\\share\\dir', '\\\\server\\share\\dir'],
    ['proj', 'D:\\work\\proj'],
    ['..\\other', 'D:\\other'],
  ])('%s -> %s', (input, expected) => {
    expect(toWin32Path(input, 'D:\\work')).toBe(expected);
  });
});

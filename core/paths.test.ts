import { describe, expect, it } from 'vitest';
import { foldDots, isUnder, POSIX_STYLE, relativeDisplay, splitDeletedSuffix, trimTrailingSeparators, WINDOWS_STYLE } from './paths.js';

describe('isUnder', () => {
  it.each([
    ['/tmp/a', '/tmp/a', true],
    ['/tmp/a/x', '/tmp/a', true],
    ['/tmp/ab', '/tmp/a', false],
    ['/tmp/ab/x', '/tmp/a', false],
    ['/tmp', '/tmp/a', false],
    ['/x', '/', true],
    ['/tmp/A/x', '/tmp/a', false],
  ])('posix %s under %s is %s', (path, dir, expected) => {
    expect(isUnder(path, dir, POSIX_STYLE)).toBe(expected);
  });

  it.each([
    ['C:\\Temp\\a\\x', 'c:\\temp\\A', true],
    ['C:\\Temp\\ab', 'C:\\Temp\\a', false],
    ['C:\\x', 'C:\\', true],
  ])('windows %s under %s is %s', (path, dir, expected) => {
    expect(isUnder(path, dir, WINDOWS_STYLE)).toBe(expected);
  });
});

describe('relativeDisplay', () => {
  it('shows the dir itself as . and children without a leading separator', () => {
    expect(relativeDisplay('/tmp/a', '/tmp/a', POSIX_STYLE)).toBe('.');
    expect(relativeDisplay('/tmp/a/b/c', '/tmp/a', POSIX_STYLE)).toBe('b/c');
    expect(relativeDisplay('/x/y', '/', POSIX_STYLE)).toBe('x/y');
    expect(relativeDisplay('C:\\T\\f.txt', 'C:\\T', WINDOWS_STYLE)).toBe('f.txt');
  });

  it('leaves a path outside the dir whole', () => {
    expect(relativeDisplay('/tmp/ab/c', '/tmp/a', POSIX_STYLE)).toBe('/tmp/ab/c');
  });
});

describe('trimTrailingSeparators', () => {
  it('keeps roots and drops the rest', () => {
    expect(trimTrailingSeparators('/tmp/a//', POSIX_STYLE)).toBe('/tmp/a');
    expect(trimTrailingSeparators('/', POSIX_STYLE)).toBe('/');
    expect(trimTrailingSeparators('C:\\', WINDOWS_STYLE)).toBe('C:\\');
    expect(trimTrailingSeparators('C:\\T\\', WINDOWS_STYLE)).toBe('C:\\T');
    expect(trimTrailingSeparators('\\\\?\\C:\\', WINDOWS_STYLE)).toBe('\\\\?\\C:\\');
  });
});

describe('splitDeletedSuffix', () => {
  it('recognises the mark and leaves other paths alone', () => {
    expect(splitDeletedSuffix('/tmp/a/x (deleted)')).toEqual({ path: '/tmp/a/x', suffixed: true });
    expect(splitDeletedSuffix('/tmp/a/x')).toEqual({ path: '/tmp/a/x', suffixed: false });
    expect(splitDeletedSuffix('/tmp/a/(deleted)')).toEqual({ path: '/tmp/a/(deleted)', suffixed: false });
  });
});

describe('foldDots', () => {
  it('folds . and .. and repeated separators, keeping a UNC head', () => {
    expect(foldDots('/a/./b//c/../d', POSIX_STYLE)).toBe('/a/b/d');
    expect(foldDots('C:/w/x/../y', WINDOWS_STYLE)).toBe('C:\\w\\y');
    expect(foldDots('\\\\srv\\share\\.\\f', WINDOWS_STYLE)).toBe('\\\\srv\\share\\f');
  });
});

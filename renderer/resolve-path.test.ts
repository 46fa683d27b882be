import { describe, expect, it } from 'vitest';
import { resolvePath } from './resolve-path.js';

describe('resolvePath', () => {
  it('resolves a relative path against the start directory, folding . and ..', () => {
    expect(resolvePath('/home/me/project', 'tests')).toBe('/home/me/project/tests');
    expect(resolvePath('/home/me/project', './a/../b/')).toBe('/home/me/project/b');
    expect(resolvePath('/home/me', '../../..')).toBe('/');
    expect(resolvePath('C:\\Users\\me', 'src\\app')).toBe('C:\\Users\\me\\src\\app');
  });

  it('leaves absolute and empty paths as typed', () => {
    expect(resolvePath('/home/me', '/tmp/x')).toBe('/tmp/x');
    expect(resolvePath('C:\\w', 'D:\\x')).toBe('D:\\x');
    expect(resolvePath('/home/me', '  ')).toBe('');
  });
});

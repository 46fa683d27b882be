import { describe, expect, it } from 'vitest';
import { classifyHandle } from './handle-kind.js';

describe('classifyHandle', () => {
  it('a file is a file, without asking for the current directory', () => {
    expect(classifyHandle(false, () => expect.fail('asked'))).toBe('file');
  });

  it("a directory handle is the process's cwd when the PEB says so, else a dir", () => {
    expect(classifyHandle(true, () => true)).toBe('cwd');
    expect(classifyHandle(true, () => false)).toBe('dir');
  });
});

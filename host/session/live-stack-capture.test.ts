import { describe, expect, it } from 'vitest';
import type { WatchDir } from '../../core/platform.js';
import { dumpsDirOutside } from './live-stack-capture.js';

const watching = (display: string, caseInsensitive: boolean): WatchDir => ({ input: display, display, matchPrefix: display, caseInsensitive });

describe('dumpsDirOutside: a minidump is never written inside a watched directory', () => {
  it('refuses a data dir under a watched dir, with the way out', () => {
    expect(() => dumpsDirOutside('/home/dev/.local/share/holdwatch', [watching('/home/dev', false)], 'linux')).toThrow(
      'a minidump would be written to /home/dev/.local/share/holdwatch/dumps, inside the watched directory /home/dev; set HOLDWATCH_DATA_DIR elsewhere and try again',
    );
  });

  it('on Windows: backslashes, and the watched dir matched case-insensitively as NTFS does', () => {
    const data = 'C:\\Users\\dev\\AppData\\Local\\holdwatch';
    expect(() => dumpsDirOutside(data, [watching('c:\\users\\DEV\\appdata', true)], 'win32')).toThrow(
      /written to C:\\Users\\dev\\AppData\\Local\\holdwatch\\dumps, inside the watched directory c:\\users\\DEV\\appdata;/,
    );
    // A sibling that shares a prefix is not "inside".
    expect(dumpsDirOutside(data, [watching('C:\\Users\\dev\\AppData\\Local\\hold', true), watching('D:\\build', true)], 'win32')).toBe(`${data}\\dumps`);
  });
});

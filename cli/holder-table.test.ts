import { describe, expect, it } from 'vitest';
import type { Holder } from '../contract/holders.js';
import { formatHolderTable } from './holder-table.js';

const holder = (processName: string, pid: number, path: string, handle: string | null = null): Holder =>
  ({ processName, pid, kind: 'file', handle, path, watchedDir: '/w', deleted: false }) as Holder;

describe('formatHolderTable', () => {
  it('aligns columns by display width (CJK counts two), four spaces apart, the path unpadded', () => {
    expect(formatHolderTable([holder('日本語', 7, '/w/a.txt', '12'), holder('python3', 12345, '/w/sub/b.txt')])).toBe(
      ['PROCESS    PID      KIND    HANDLE    PATH', '日本語     7        file    12        a.txt', 'python3    12345    file              sub/b.txt'].join(
        '\n',
      ),
    );
  });

  it('lays out 150,000 holders a line each (no spread of their widths into one call)', () => {
    const lines = formatHolderTable(Array.from({ length: 150_000 }, (_, i) => holder('node', i, `/w/f${i}`))).split('\n');
    expect(lines).toHaveLength(150_001);
    expect(lines.at(-1)).toBe('node       149999    file              f149999');
  });
});

// Byte-level tests of the steady-state table pass: the same hand-built x64 buffers as the object
// parser, read through a 32-bit view; runs per process; word-for-word change detection.
import { describe, expect, it } from 'vitest';
import { systemHandleTable, type HandleRow } from '../../tests/support/system-handle-table.js';
import { windowsHandleAccess } from '../../core/handle-access.js';
import { collectFileRows, rowEntry, sameRun } from './file-rows.js';
import { parseSystemHandleTable } from './handle-table.js';

const FILE = 37;

const rows: HandleRow[] = [
  { object: 0xffff800012345678n, pid: 4, handle: 0x4, access: 0x0012019f, type: FILE },
  { pid: 4, handle: 0x8, access: 0x1f0fff, type: 7 },
  { pid: 1234, handle: 0x1a4, access: 0x00100020, type: FILE },
  { pid: 1234, handle: 0x1a8, access: 0x000f003f, type: 44 },
  { pid: 1234, handle: 0x1ac, access: 0x00120089, type: FILE },
  { pid: 77, handle: 0x10, access: 0x00120089, type: FILE },
];

describe('collectFileRows', () => {
  it('keeps File rows only, grouped in per-process runs, with the same fields as the object parser', () => {
    const collected = collectFileRows(systemHandleTable(rows), FILE);
    expect(collected.count).toBe(4);
    expect(collected.runs).toEqual([
      { pid: 4, start: 0, end: 1 },
      { pid: 1234, start: 1, end: 3 },
      { pid: 77, start: 3, end: 4 },
    ]);
    const entries = Array.from({ length: collected.count }, (_, i) => rowEntry(collected, i, FILE));
    expect(entries).toEqual(parseSystemHandleTable(systemHandleTable(rows), undefined, FILE));
  });

  it('reads a buffer that does not start on a 4-byte boundary', () => {
    const collected = collectFileRows(systemHandleTable(rows, rows.length, 1), FILE);
    expect(rowEntry(collected, 1, FILE)).toEqual({ pid: 1234, object: 0n, handle: 0x1a4n, grantedAccess: 0x00100020, typeIndex: FILE });
  });

  it('stops at the rows that really fit when the declared count ran ahead (the table grew)', () => {
    const buf = systemHandleTable(rows, 50);
    expect(collectFileRows(buf, FILE).count).toBe(4);
    expect(collectFileRows(buf, FILE, 16 + 3 * 40).count).toBe(2);
  });

  it('grows the reused word buffer past its size', () => {
    const many: HandleRow[] = Array.from({ length: 3000 }, (_, i) => ({ pid: 8, handle: 4 * (i + 1), access: 0x120089, type: FILE }));
    const collected = collectFileRows(systemHandleTable(many), FILE, undefined, { words: new Uint32Array(12), count: 0, runs: [] });
    expect(collected.count).toBe(3000);
    expect(rowEntry(collected, 2999, FILE).handle).toBe(12000n);
  });

  it('a pid met again after another pid starts a second run (callers treat it as changed)', () => {
    const split = collectFileRows(systemHandleTable([...rows, { pid: 4, handle: 0x20, access: 1, type: FILE }]), FILE);
    expect(split.runs.map((r) => r.pid)).toEqual([4, 1234, 77, 4]);
  });
});

describe('sameRun', () => {
  const before = collectFileRows(systemHandleTable(rows), FILE);
  const run = (rowsOf: ReturnType<typeof collectFileRows>, pid: number) => rowsOf.runs.find((r) => r.pid === pid)!;

  it('is true for a process whose File rows are unchanged, wherever its run sits', () => {
    const after = collectFileRows(systemHandleTable(rows.filter((r) => r.pid !== 4)), FILE);
    expect(sameRun(after, run(after, 1234), before, run(before, 1234))).toBe(true);
    expect(sameRun(after, run(after, 77), before, run(before, 77))).toBe(true);
  });

  it.each([
    ['a new handle', [...rows.slice(0, 5), { pid: 1234, handle: 0x1b0, access: 0x120089, type: FILE }, rows[5]!]],
    ['a closed handle', rows.filter((r) => r.handle !== 0x1ac)],
    ['a reused value with other access', rows.map((r) => (r.handle === 0x1ac ? { ...r, access: 0x0012019f } : r))],
    ['a reused value on another object', rows.map((r) => (r.handle === 0x1ac ? { ...r, object: 0xffff800000000010n } : r))],
  ])('is false after %s', (_, changed) => {
    const after = collectFileRows(systemHandleTable(changed), FILE);
    expect(sameRun(after, run(after, 1234), before, run(before, 1234))).toBe(false);
  });

  it('ignores handles of other types (a new event or key does not make a process "changed")', () => {
    const after = collectFileRows(systemHandleTable([...rows, { pid: 1234, handle: 0x300, access: 1, type: 44 }]), FILE);
    expect(sameRun(after, run(after, 1234), before, run(before, 1234))).toBe(true);
  });
});

describe('GrantedAccess from the table to the holder', () => {
  it('reads the word at +24 of each row and decodes it as rights', () => {
    const collected = collectFileRows(systemHandleTable(rows), FILE);
    const decoded = Array.from({ length: collected.count }, (_, i) => {
      const entry = rowEntry(collected, i, FILE);
      return [entry.handle, windowsHandleAccess(entry.grantedAccess, entry.handle === 0x1a4n ? 'cwd' : 'file').rights];
    });
    expect(decoded).toEqual([
      [0x4n, ['read', 'write']],
      [0x1a4n, ['read']], // a cwd's FILE_TRAVERSE: read access to share checks
      [0x1acn, ['read']],
      [0x10n, ['read']],
    ]);
  });
});

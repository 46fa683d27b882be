import { describe, expect, it } from 'vitest';
import { snapshotTable } from '../native/win32/file-rows.js';
import { systemHandleTable, type HandleRow } from '../tests/support/system-handle-table.js';
import { changedRowCount } from './table-churn.js';

const FILE = 37;
const rows: HandleRow[] = [
  { pid: 4, handle: 0x4, access: 0x120089, type: FILE },
  { pid: 8, handle: 0x4, access: 0x120089, type: FILE },
  { pid: 8, handle: 0x8, access: 0x120089, type: FILE },
  { pid: 8, handle: 0xc, access: 0x1f0fff, type: 7 },
];
const read = (table: HandleRow[]) => snapshotTable(systemHandleTable(table), FILE);

describe('changedRowCount', () => {
  it('is 0 for the same File rows, whatever else changed', () => {
    expect(changedRowCount(read(rows), read([...rows.slice(0, 3), { pid: 8, handle: 0xc, access: 1, type: 7 }]))).toBe(0);
  });

  it('counts a row opened and a row closed once each, a row whose access changed twice', () => {
    const after: HandleRow[] = [{ pid: 4, handle: 0x4, access: 0x12019f, type: FILE }, rows[1]!, { pid: 8, handle: 0x10, access: 0x120089, type: FILE }];
    expect(changedRowCount(read(rows), read(after))).toBe(4); // 0x4 of pid 4 twice, 0x8 closed, 0x10 opened
    expect(changedRowCount(read(rows), read(rows.slice(0, 2)))).toBe(1);
  });

  it('counts each copy of a row that appears twice', () => {
    expect(changedRowCount(read(rows), read([...rows, rows[0]!]))).toBe(1);
  });
});

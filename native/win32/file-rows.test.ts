// Byte-level tests of the steady-state table pass: the same hand-built x64 buffers as the object
// parser, read through a 32-bit view; blocks per process; change detection on File rows only.
import { describe, expect, it } from 'vitest';
import { systemHandleTable, type HandleRow } from '../../tests/support/system-handle-table.js';
import { windowsHandleAccess } from '../../core/handle-access.js';
import { entryAt, fileRowIndices, handleCountIn, sameFileRows, sharedHeadRows, sharedTailRows, snapshotTable, type TableSnapshot } from './file-rows.js';
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

const snap = (table: HandleRow[]) => snapshotTable(systemHandleTable(table), FILE);
const blockOf = (snapshot: TableSnapshot, pid: number) => snapshot.blocks.find((b) => b.pid === pid)!;
const fileEntries = (snapshot: TableSnapshot) => snapshot.blocks.flatMap((b) => fileRowIndices(snapshot, b).map((row) => entryAt(snapshot, row)));

describe('snapshotTable', () => {
  it("makes one block per process, every type, counting its File rows; its File entries are the object parser's", () => {
    const snapshot = snap(rows);
    expect(snapshot.blocks).toEqual([
      { pid: 4, start: 0, end: 2, fileRows: 1 },
      { pid: 1234, start: 2, end: 5, fileRows: 2 },
      { pid: 77, start: 5, end: 6, fileRows: 1 },
    ]);
    expect(fileRowIndices(snapshot, blockOf(snapshot, 1234))).toEqual([2, 4]);
    expect(fileEntries(snapshot)).toEqual(parseSystemHandleTable(systemHandleTable(rows), undefined, FILE));
  });

  it('reads a buffer that does not start on a 4-byte boundary', () => {
    const snapshot = snapshotTable(systemHandleTable(rows, rows.length, 1), FILE);
    expect(entryAt(snapshot, 2)).toEqual({ pid: 1234, object: 0n, handle: 0x1a4n, grantedAccess: 0x00100020, typeIndex: FILE });
    expect(sameFileRows(snapshot, blockOf(snapshot, 1234), snap(rows), blockOf(snap(rows), 1234))).toBe(true);
  });

  it('stops at the rows that really fit when the declared count ran ahead (the table grew)', () => {
    const buf = systemHandleTable(rows, 50);
    expect(snapshotTable(buf, FILE).blocks.at(-1)).toEqual({ pid: 77, start: 5, end: 6, fileRows: 1 });
    expect(snapshotTable(buf, FILE, 16 + 3 * 40).blocks).toEqual([
      { pid: 4, start: 0, end: 2, fileRows: 1 },
      { pid: 1234, start: 2, end: 3, fileRows: 1 },
    ]);
  });

  it('a pid met again after another pid starts a second block (callers treat it as changed)', () => {
    const split = snap([...rows, { pid: 4, handle: 0x20, access: 1, type: FILE }]);
    expect(split.blocks.map((b) => b.pid)).toEqual([4, 1234, 77, 4]);
    // A details request's handle count: every type, every block of the pid, as the whole-table count gives it.
    expect([4, 1234, 77, 99].map((pid) => handleCountIn(split, pid))).toEqual([3, 3, 1, 0]);
  });
});

describe('snapshotTable compared with the table read before', () => {
  const before = snapshotTable(systemHandleTable(rows), FILE, undefined, undefined, 1);
  const compared = (table: HandleRow[]) => snapshotTable(systemHandleTable(table), FILE, undefined, before, 2);
  const same = (snapshot: TableSnapshot) => snapshot.blocks.filter((b) => b.sameAsCompared).map((b) => b.pid);

  it('takes an unchanged block whole, with the File row count and bounds a full pass gives', () => {
    const after = compared(rows.filter((r) => r.pid !== 4));
    expect(after.comparedWith).toBe(1);
    expect(same(after)).toEqual([1234, 77]);
    expect(after.blocks.map(({ pid, start, end, fileRows }) => ({ pid, start, end, fileRows }))).toEqual(snap(rows.filter((r) => r.pid !== 4)).blocks);
  });

  it.each([
    ['a new handle of any type', [...rows.slice(0, 5), { pid: 1234, handle: 0x300, access: 1, type: 44 }, rows[5]!], [4, 77]],
    ['a closed handle', rows.filter((r) => r.handle !== 0x1a8), [4, 77]],
    ['a changed row', rows.map((r) => (r.handle === 0x1a8 ? { ...r, access: 0x20019 } : r)), [4, 77]],
    ['the last process grown past the table read before', [...rows, { pid: 77, handle: 0x14, access: 1, type: FILE }], [4, 1234]],
  ])('scans a block again after %s, and only that one', (_, table, unchanged) => {
    const after = compared(table);
    expect(same(after)).toEqual(unchanged);
    expect(after.blocks.map(({ pid, start, end, fileRows }) => ({ pid, start, end, fileRows }))).toEqual(snap(table).blocks);
  });

  it('takes unchanged blocks whole whatever order the processes come in, and past a process not in the table before', () => {
    const of = (pid: number) => rows.filter((r) => r.pid === pid);
    const reordered = [...of(77), ...of(1234), { pid: 500, handle: 0x4, access: 1, type: FILE }, ...of(4)];
    const after = compared(reordered);
    expect(same(after)).toEqual([77, 1234, 4]);
    expect(after.blocks.map(({ pid, start, end, fileRows }) => ({ pid, start, end, fileRows }))).toEqual(snap(reordered).blocks);
  });

  it('compares nothing across File type indices', () => {
    const other = snapshotTable(systemHandleTable(rows), 44, undefined, before, 2);
    expect(same(other)).toEqual([]);
    expect(other.comparedWith).toBeUndefined();
  });
});

describe('sameFileRows', () => {
  const before = snap(rows);

  it('is true for a process whose File rows are unchanged, wherever its block sits', () => {
    const after = snap(rows.filter((r) => r.pid !== 4));
    expect(sameFileRows(after, blockOf(after, 1234), before, blockOf(before, 1234))).toBe(true);
    expect(sameFileRows(after, blockOf(after, 77), before, blockOf(before, 77))).toBe(true);
  });

  it.each([
    ['a new handle', [...rows.slice(0, 5), { pid: 1234, handle: 0x1b0, access: 0x120089, type: FILE }, rows[5]!]],
    ['a closed handle', rows.filter((r) => r.handle !== 0x1ac)],
    ['a reused value with other access', rows.map((r) => (r.handle === 0x1ac ? { ...r, access: 0x0012019f } : r))],
    ['a reused value on another object', rows.map((r) => (r.handle === 0x1ac ? { ...r, object: 0xffff800000000010n } : r))],
    ['a handle of another type that became a File handle', rows.map((r) => (r.handle === 0x1a8 ? { ...r, type: FILE } : r))],
  ])('is false after %s', (_, changed) => {
    const after = snap(changed);
    expect(sameFileRows(after, blockOf(after, 1234), before, blockOf(before, 1234))).toBe(false);
  });

  it('ignores handles of other types (a new event or key does not make a process "changed")', () => {
    const after = snap([...rows.slice(0, 5), { pid: 1234, handle: 0x300, access: 1, type: 44 }, rows[5]!]);
    expect(sameFileRows(after, blockOf(after, 1234), before, blockOf(before, 1234))).toBe(true);
    const rekeyed = snap(rows.map((r) => (r.handle === 0x1a8 ? { ...r, access: 0x20019 } : r)));
    expect(sameFileRows(rekeyed, blockOf(rekeyed, 1234), before, blockOf(before, 1234))).toBe(true);
  });

  it('ignores the fields of a File row that do not tell its handle (HandleAttributes, CreatorBackTraceIndex)', () => {
    const buf = systemHandleTable(rows);
    buf.writeUInt32LE(0x2, 16 + 4 * 40 + 32); // HandleAttributes of 0x1ac: OBJ_INHERIT
    buf.writeUInt16LE(9, 16 + 4 * 40 + 28);
    const after = snapshotTable(buf, FILE);
    expect(sameFileRows(after, blockOf(after, 1234), before, blockOf(before, 1234))).toBe(true);
  });
});

describe('a process with thousands of handles', () => {
  // 5,000 rows: every seventh an event, the rest File handles; a change touches one row somewhere in it.
  const big: HandleRow[] = Array.from({ length: 5000 }, (_, i) => ({ pid: 1234, handle: 4 * (i + 1), access: 0x120089, type: i % 7 === 3 ? 44 : FILE }));
  const before = snap(big);
  const block = (snapshot: TableSnapshot) => blockOf(snapshot, 1234);
  const headByRow = (a: Buffer, b: Buffer, limit: number) => {
    let rows = 0;
    while (rows < limit && a.compare(b, 16 + rows * 40, 56 + rows * 40, 16 + rows * 40, 56 + rows * 40) === 0) rows++;
    return rows;
  };

  it.each([0, 1, 63, 64, 65, 2500, 4998, 4999])('finds the shared head and tail rows around a change in row %i, as a row-by-row compare does', (at) => {
    const changed = snap(big.map((r, i) => (i === at ? { ...r, access: 0x12019f } : r)));
    expect(sharedHeadRows(changed.bytes, 0, before.bytes, 0, 5000)).toBe(headByRow(changed.bytes, before.bytes, 5000));
    expect(sharedHeadRows(changed.bytes, 0, before.bytes, 0, 5000)).toBe(at);
    expect(sharedTailRows(changed.bytes, 5000, before.bytes, 5000, 5000)).toBe(4999 - at);
    expect(sharedTailRows(changed.bytes, 5000, before.bytes, 5000, 5000 - at)).toBe(Math.min(4999 - at, 5000 - at));
  });

  it('finds every row shared when nothing changed, and none when the first rows differ', () => {
    expect(sharedHeadRows(before.bytes, 0, before.bytes, 0, 5000)).toBe(5000);
    expect(sharedTailRows(before.bytes, 5000, before.bytes, 5000, 3000)).toBe(3000);
    const shifted = snap([{ pid: 1234, handle: 2, access: 1, type: 44 }, ...big]);
    expect(sharedHeadRows(shifted.bytes, 0, before.bytes, 0, 5000)).toBe(0);
    expect(sharedTailRows(shifted.bytes, 5001, before.bytes, 5000, 5000)).toBe(5000);
  });

  it('is the same process after an event opened or closed among its File rows', () => {
    const opened = snap([...big.slice(0, 2500), { pid: 1234, handle: 0x40000, access: 1, type: 44 }, ...big.slice(2500)]);
    expect(sameFileRows(opened, block(opened), before, block(before))).toBe(true);
    const closed = snap(big.filter((_, i) => i !== 3));
    expect(sameFileRows(closed, block(closed), before, block(before))).toBe(true);
  });

  it.each([
    ['one File row with other access', big.map((r, i) => (i === 2501 ? { ...r, access: 0x12019f } : r))],
    ['a File handle closed and another opened', [...big.filter((_, i) => i !== 11), { pid: 1234, handle: 0x40000, access: 0x120089, type: FILE }]],
    ['an event become a File handle and a File handle closed', big.filter((_, i) => i !== 4999).map((r, i) => (i === 2502 ? { ...r, type: FILE } : r))],
  ])('is a changed process after %s', (_, table) => {
    const after = snap(table);
    expect(block(after).fileRows).toBe(block(before).fileRows);
    expect(sameFileRows(after, block(after), before, block(before))).toBe(false);
  });
});

describe('GrantedAccess from the table to the holder', () => {
  it('reads the word at +24 of each row and decodes it as rights', () => {
    const decoded = fileEntries(snap(rows)).map((entry) => [
      entry.handle,
      windowsHandleAccess(entry.grantedAccess, entry.handle === 0x1a4n ? 'cwd' : 'file').rights,
    ]);
    expect(decoded).toEqual([
      [0x4n, ['read', 'write']],
      [0x1a4n, ['read']], // a cwd's FILE_TRAVERSE: read access to share checks
      [0x1acn, ['read']],
      [0x10n, ['read']],
    ]);
  });
});

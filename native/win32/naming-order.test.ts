import { describe, expect, it } from 'vitest';
import type { HandleEntry } from './handle-table.js';
import { namingOrder } from './naming-order.js';

const row = (handle: bigint, grantedAccess: number): HandleEntry => ({ pid: 10, object: 0n, handle, grantedAccess, typeIndex: 37 });

describe('namingOrder', () => {
  it('asks the hang-prone access masks last, keeping table order otherwise', () => {
    const entries = [
      row(0x4n, 0x0012019f), // a synchronous pipe (or a file opened r+: asked all the same, later)
      row(0x8n, 0x00120089), // FILE_GENERIC_READ: a file
      row(0xcn, 0x00100000), // SYNCHRONIZE only
      row(0x10n, 0x0013019f), // read/write/delete: a temp file
      row(0x14n, 0x00120196), // FILE_GENERIC_WRITE
    ];
    expect(namingOrder(entries, [0, 1, 2, 3, 4])).toEqual([1, 3, 4, 0, 2]);
    expect(namingOrder(entries, [2, 4])).toEqual([4, 2]);
  });
});

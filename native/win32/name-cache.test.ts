// The name cache across the two kinds of scan a run makes on Windows: full scans read the system table
// (object addresses known), focus scans each process's own table (class 51: object 0).
import { describe, expect, it } from 'vitest';
import type { HandleEntry } from './handle-table.js';
import { NameCache } from './name-cache.js';
import type { NameOutcome } from './name-worker-client.js';

const row = (object: bigint, handle = 0x44n, access = 0x12019f): HandleEntry => ({ pid: 10, object, handle, grantedAccess: access, typeIndex: 37 });
const named = (name: string): NameOutcome => ({ kind: 'named', answer: { type: 'named', id: 1, index: 0, name, directory: false, deletePending: false } });

/** One scan of `rows`: the cached ones found, the rest stored as named `fresh`. Returns how many had to be named. */
function scan(cache: NameCache, rows: HandleEntry[], fresh = 'new'): number {
  cache.beginScan();
  let asked = 0;
  for (const r of rows) {
    if (cache.lookup(r, 0)) continue;
    asked++;
    cache.store(r, named(fresh));
  }
  cache.endScan([10]);
  return asked;
}

describe('NameCache', () => {
  it("keeps a handle's name across focus scans (object 0) and full scans (its address): named once", () => {
    const cache = new NameCache();
    expect(scan(cache, [row(0xffffa000n)])).toBe(1); // full
    expect(scan(cache, [row(0n)])).toBe(0); // focus
    expect(scan(cache, [row(0xffffa000n)])).toBe(0); // full again
    const first = new NameCache();
    expect(scan(first, [row(0n)])).toBe(1); // focus first
    expect(scan(first, [row(0xffffa000n)])).toBe(0); // the address is learnt...
    expect(scan(first, [row(0xffffb000n)])).toBe(1); // ...and another object under that value is another file
  });

  it('names again a handle value reused for another object, or with other rights', () => {
    const cache = new NameCache();
    scan(cache, [row(0xffffa000n)]);
    expect(scan(cache, [row(0xffffc000n)])).toBe(1);
    expect(scan(cache, [row(0xffffc000n, 0x44n, 0x120089)])).toBe(1);
  });
});

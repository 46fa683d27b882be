// scripts/patch-wineserver.mjs: the two bytes it changes in Wine 8.0's wineserver, and its refusal to
// touch a build it does not know (the reason for the fix is in the script).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no types
import { patchWineserver } from '../../scripts/patch-wineserver.mjs';

const STOCK = '/usr/lib/wine/wineserver64';
const patch = patchWineserver as (binary: Buffer) => Buffer;

describe('patch-wineserver', () => {
  it.skipIf(!existsSync(STOCK))("changes exactly the loop's entry jump and its bound check (jb -> jl) in Debian 12's wineserver", () => {
    const stock = readFileSync(STOCK);
    const patched = patch(stock);
    const changed = [...stock.keys()].filter((i) => stock[i] !== patched[i]);
    expect(changed).toHaveLength(2);
    const [jump, bound] = changed as [number, number];
    expect([stock[bound], patched[bound]]).toEqual([0x72, 0x7c]);
    // The entry jump now lands on the bound check (`cmp %edi,0x54(%r10)`, 4 bytes before the jl).
    expect(jump + 1 + patched.readInt8(jump)).toBe(bound - 4);
  });

  it('refuses a binary where either site is missing or found twice', () => {
    expect(() => patch(Buffer.alloc(1024))).toThrow(/not found exactly once/);
    const site = Buffer.from('498b526041b80400000031ffeb1e' + '00'.repeat(20) + '4183c00441397a547222' + '48833a00', 'hex');
    expect(() => patch(Buffer.concat([site, site]))).toThrow(/not found exactly once/);
  });
});

import { describe, expect, it } from 'vitest';
import { jsonPieces } from './json-pieces.js';

const joined = (pieces: Iterable<string>) => [...pieces].join('');

describe('jsonPieces', () => {
  const holder = (i: number) => ({ pid: i, path: `/w/"quoted" \u2028 \\ ${i}`, handle: i % 2 ? null : `fd ${i}`, access: i % 3 ? undefined : { raw: '00' } });
  const snapshot = (count: number) => ({
    dir: '/w/"holders":[]',
    platform: 'linux',
    holders: Array.from({ length: count }, (_, i) => holder(i)),
    denied: [],
    stats: { ms: 1 },
  });

  it('joins to JSON.stringify of the whole, byte for byte, at every count around a piece boundary', () => {
    for (const count of [0, 1, 2, 3, 4, 5, 7, 8, 9]) {
      const value = snapshot(count);
      expect(joined(jsonPieces(value, 'holders', 4))).toBe(JSON.stringify(value));
    }
  });

  it('cuts the array into pieces of the size asked', () => {
    const pieces = [...jsonPieces(snapshot(9), 'holders', 4)];
    // head, three pieces of elements (4, 4, 1), tail
    expect(pieces).toHaveLength(5);
    expect(pieces[0]!.endsWith('"holders":[')).toBe(true);
    expect(pieces.at(-1)!.startsWith('],"denied":[]')).toBe(true);
  });

  it('makes one piece when a value before the key holds the same key', () => {
    const value = { before: { holders: [] }, holders: [1, 2, 3] };
    const pieces = [...jsonPieces(value, 'holders', 1)];
    expect(pieces).toEqual([JSON.stringify(value)]);
  });
});

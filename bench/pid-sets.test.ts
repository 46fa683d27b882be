import { describe, expect, it } from 'vitest';
import type { FixtureHolder } from './fixture.js';
import { comparePids, describeHolders, isSuperset } from './pid-sets.js';

const holders: FixtureHolder[] = [
  { pid: 10, role: 'files' },
  { pid: 11, role: 'files-cwd' },
  { pid: 12, role: 'mmap' },
  { pid: 13, role: 'unlinked' },
  { pid: 20, role: 'noise' },
];

describe('comparePids', () => {
  it('lists the expected holders a tool missed and the pids it should not have reported', () => {
    const result = comparePids(new Set([10, 11, 12, 20, 99]), holders);
    expect(result.found).toBe(5);
    expect(result.missing).toEqual([{ pid: 13, role: 'unlinked' }]);
    expect(result.extra).toEqual([
      { pid: 20, role: 'noise' },
      { pid: 99, role: 'unknown' },
    ]);
  });
  it('reports nothing missing or extra for exactly the expected set', () => {
    const result = comparePids(new Set([10, 11, 12, 13]), holders);
    expect(result.missing).toEqual([]);
    expect(result.extra).toEqual([]);
  });
});

describe('isSuperset', () => {
  it('holds when every pid of the subset is present, after dropping ignored ones', () => {
    expect(isSuperset(new Set([1, 2, 3]), new Set([1, 3]))).toBe(true);
    expect(isSuperset(new Set([1, 2]), new Set([1, 3]))).toBe(false);
    expect(isSuperset(new Set([1, 2]), new Set([1, 3]), new Set([3]))).toBe(true);
  });
});

describe('describeHolders', () => {
  it('groups by role and collapses long lists to a count', () => {
    expect(describeHolders([])).toBe('none');
    expect(
      describeHolders([
        { pid: 13, role: 'unlinked' },
        { pid: 12, role: 'mmap' },
      ]),
    ).toBe('unlinked 13, mmap 12');
    const many = [1, 2, 3, 4, 5].map((pid) => ({ pid, role: 'noise' }));
    expect(describeHolders(many)).toBe('noise x5');
  });
});

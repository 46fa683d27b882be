import { describe, expect, it } from 'vitest';
import { formatMs, formatRatio, median, ratio } from './stats.js';

describe('median', () => {
  it('takes the middle sample of an odd count, whatever the order', () => {
    expect(median([9, 1, 5])).toBe(5);
  });
  it('averages the middle two of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('is NaN for no samples', () => {
    expect(median([])).toBeNaN();
  });
});

describe('ratio and formatting', () => {
  it('divides by a positive base only', () => {
    expect(ratio(65, 50)).toBeCloseTo(1.3);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
  });
  it('prints fewer decimals as numbers grow, and a dash for missing ones', () => {
    expect(formatMs(4.567)).toBe('4.57');
    expect(formatMs(45.67)).toBe('45.7');
    expect(formatMs(456.7)).toBe('457');
    expect(formatMs(Number.NaN)).toBe('-');
    expect(formatRatio(1.234)).toBe('1.23x');
    expect(formatRatio(Number.NaN)).toBe('-');
  });
});

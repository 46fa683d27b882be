import { describe, expect, it } from 'vitest';
import { isoOfMs } from './iso-time.js';

describe('isoOfMs', () => {
  it('spells every moment as Date#toISOString does, in one second and across seconds', () => {
    const start = Date.UTC(2026, 11, 5, 4, 59, 59, 990) + 0.25;
    for (let i = 0; i < 5000; i++) {
      const ms = start + i * 0.37;
      expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('spells the edges as Date does: 1970, whole and fractional milliseconds, the years past 9999 and before 1970', () => {
    for (const ms of [0, 0.9, 999.999, 1000, 1_764_910_799_999.5, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -1, -1500.5])
      expect(isoOfMs(ms)).toBe(new Date(ms).toISOString());
  });
});

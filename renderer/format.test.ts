import { describe, expect, it } from 'vitest';
import { thousands } from './format.js';

describe('thousands', () => {
  it('writes a count as en-US does', () => {
    for (const n of [0, 1, 12, 999, 1000, 20_000, 123_456, 1_000_000, 1_234_567_890, -1, -1234, -999_999]) {
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

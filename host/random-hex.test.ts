import { describe, expect, it } from 'vitest';
import { randomHex } from './random-hex.js';

describe('randomHex', () => {
  it.each(['linux', 'win32'] as const)('gives twice as many hex digits as bytes asked, never the same twice (%s source)', (platform) => {
    if (platform === 'linux' && process.platform !== 'linux') return;
    const drawn = Array.from({ length: 50 }, () => randomHex(24, platform));
    for (const value of drawn) expect(value).toMatch(/^[0-9a-f]{48}$/);
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});

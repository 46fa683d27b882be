import { describe, expect, it } from 'vitest';
import { sameSecret } from './same-secret.js';

describe('sameSecret', () => {
  const token = 'c3ec50e53ef16982e4ac8b4a245ec6b993b4c394a59c01bf';

  it('is true only for the same token', () => {
    expect(sameSecret(token, token)).toBe(true);
    expect(sameSecret(token.slice(0, -1) + 'e', token)).toBe(false);
    expect(sameSecret('d' + token.slice(1), token)).toBe(false);
  });

  it('is false for a prefix, a longer token and an empty one', () => {
    expect(sameSecret(token.slice(0, 10), token)).toBe(false);
    expect(sameSecret(token + '0', token)).toBe(false);
    expect(sameSecret('', token)).toBe(false);
  });

  it('compares the bytes sent: text that looks alike but is spelled otherwise differs', () => {
    expect(sameSecret('caf\u00e9', 'cafe\u0301')).toBe(false);
    expect(sameSecret('caf\u00e9', 'caf\u00e9')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { deniedLine } from './scan-command.js';

describe('deniedLine', () => {
  it('asks for elevation only for what elevation would show, and never asks root to become root', () => {
    expect(deniedLine([{}, {}], true)).toBe(
      '2 process(es) could not be inspected even as root (they ended mid-read, or live where /proc does not show them); --json lists them',
    );
    expect(deniedLine([{}, {}], false)).toBe('2 process(es) could not be inspected (run as root or administrator to see them); --json lists them');
    expect(deniedLine([{ protected: true }], false)).toBe(
      '1 protected by Windows (Defender, csrss, System...: no scan may open them, elevated or not); --json lists them',
    );
    expect(deniedLine([{}, { protected: true }, { protected: true }], false)).toBe(
      '1 process(es) could not be inspected (run as root or administrator to see them); 2 protected by Windows (Defender, csrss, System...: no scan may open them, elevated or not); --json lists them',
    );
  });
});

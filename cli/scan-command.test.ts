import { describe, expect, it } from 'vitest';
import { deniedLine } from './scan-command.js';

describe('deniedLine', () => {
  it('asks for elevation only for what elevation would show', () => {
    expect(deniedLine([{}, {}])).toBe('2 process(es) could not be inspected (run as root or administrator to see them); --json lists them');
    expect(deniedLine([{ protected: true }])).toBe(
      '1 protected by Windows (Defender, csrss, System...: no scan may open them, elevated or not); --json lists them',
    );
    expect(deniedLine([{}, { protected: true }, { protected: true }])).toBe(
      '1 process(es) could not be inspected (run as root or administrator to see them); 2 protected by Windows (Defender, csrss, System...: no scan may open them, elevated or not); --json lists them',
    );
  });
});

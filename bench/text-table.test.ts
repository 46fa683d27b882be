import { describe, expect, it } from 'vitest';
import { formatTextTable } from './text-table.js';

describe('formatTextTable', () => {
  it('pads every column to its widest cell and right-aligns the numeric ones', () => {
    const text = formatTextTable(
      [{ header: 'tool' }, { header: 'ms', align: 'right' }],
      [
        ['lsof', '420'],
        ['holdwatch', '9.5'],
      ],
    );
    expect(text.split('\n')).toEqual(['tool        ms', '---------  ---', 'lsof       420', 'holdwatch  9.5']);
  });
});

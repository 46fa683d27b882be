import { describe, expect, it } from 'vitest';
import { formatMarkdownTable, formatTextTable } from './text-table.js';

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

describe('formatMarkdownTable', () => {
  it('writes a header, an alignment rule (---: for right-aligned) and one row per line, escaping | in cells', () => {
    const text = formatMarkdownTable(
      [{ header: 'scenario' }, { header: 'ms', align: 'right' }],
      [
        ['table as found', '1.25'],
        ['a | b', '3'],
      ],
    );
    expect(text.split('\n')).toEqual(['| scenario | ms |', '|---|---:|', '| table as found | 1.25 |', '| a \\| b | 3 |']);
  });
});

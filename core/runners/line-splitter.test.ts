import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

describe('LineSplitter', () => {
  it('keeps a partial line (and a split CRLF) until it completes', () => {
    const s = new LineSplitter();
    expect(s.push('one\r')).toEqual([]);
    expect(s.push('\ntw')).toEqual(['one']);
    expect(s.push('o\n\nthree')).toEqual(['two', '']);
    expect(s.end()).toEqual(['three']);
    expect(s.end()).toEqual([]);
  });
});

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

describe('LineSplitter with a line limit', () => {
  it('keeps only the start of a line past the limit, then splits the next lines as usual', () => {
    const s = new LineSplitter(8);
    expect(s.push('0123')).toEqual([]);
    expect(s.push('456789abc')).toEqual([]);
    expect(s.push('def\nnext\r\nlast')).toEqual(['01234567', 'next']);
    expect(s.end()).toEqual(['last']);
  });

  it('holds at most the limit of a line 1,000 chunks of 64 KiB long (64 MB without a newline)', () => {
    const s = new LineSplitter(64 * 1024);
    const chunk = 'x'.repeat(64 * 1024 - 1) + '\r';
    for (let i = 0; i < 1000; i++) expect(s.push(chunk)).toEqual([]);
    const [line] = s.push('\nafter\n');
    expect(line).toHaveLength(64 * 1024 - 1); // the limit, its \r dropped as a CRLF's
    expect(s.end()).toEqual([]);
  });
});

describe('LineSplitter dropping blank lines', () => {
  it('leaves out empty lines, CRLF ones and a lone \\r split across chunks, and keeps the rest in order', () => {
    const s = new LineSplitter(Infinity, true);
    expect(s.push('\n\n\r\none\n\n\ntwo\r')).toEqual(['one']);
    expect(s.push('\n\r')).toEqual(['two']);
    expect(s.push('\n  \n')).toEqual(['  ']); // whitespace is a line's content
    expect(s.push('\n'.repeat(100_000) + 'three')).toEqual([]);
    expect(s.end()).toEqual(['three']);
    expect(s.push('\r')).toEqual([]);
    expect(s.end()).toEqual([]);
  });

  it('agrees with the keeping splitter on every non-blank line of random text', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = Array.from({ length: 20_000 }, () => 'ab\r\n '[Math.floor(random() * 5)]).join('');
    const keeping = new LineSplitter(Infinity);
    const dropping = new LineSplitter(Infinity, true);
    const kept: string[] = [];
    const dropped: string[] = [];
    for (let at = 0; at < text.length;) {
      const size = 1 + Math.floor(random() * 40);
      kept.push(...keeping.push(text.slice(at, at + size)));
      dropped.push(...dropping.push(text.slice(at, at + size)));
      at += size;
    }
    kept.push(...keeping.end());
    dropped.push(...dropping.end());
    expect(dropped).toEqual(kept.filter((line) => line !== ''));
  });
});

// Byte-level: environment blocks as they sit in another process's memory (UTF-16LE, NUL-separated,
// double-NUL ended), with the oddities Windows puts in them.
import { describe, expect, it } from 'vitest';
import { environmentBlockLength, findEnvironmentVariable, parseEnvironmentBlock } from './environment-block.js';
import { readEnvironmentAt } from './process-parameters.js';

const block = (...entries: string[]) => Buffer.from(`${entries.join('\0')}\0\0`, 'utf16le');

describe('environment block', () => {
  const env = block('=C:=C:\\work', '=ExitCode=00000000', 'Path=C:\\Windows;C:\\bin', 'HOLDWATCH_RUN=abc', 'EMPTY=', 'Zoë=ü=x');

  it('parses entries in order; names may start with = and values may hold =', () => {
    expect(parseEnvironmentBlock(env)).toEqual([
      ['=C:', 'C:\\work'],
      ['=ExitCode', '00000000'],
      ['Path', 'C:\\Windows;C:\\bin'],
      ['HOLDWATCH_RUN', 'abc'],
      ['EMPTY', ''],
      ['Zoë', 'ü=x'],
    ]);
  });

  it('finds a variable case-insensitively, as GetEnvironmentVariableW does', () => {
    expect(findEnvironmentVariable(env, 'HOLDWATCH_RUN')).toBe('abc');
    expect(findEnvironmentVariable(env, 'holdwatch_run')).toBe('abc');
    expect(findEnvironmentVariable(env, 'PATH')).toBe('C:\\Windows;C:\\bin');
    expect(findEnvironmentVariable(env, 'EMPTY')).toBe('');
    expect(findEnvironmentVariable(env, 'HOLDWATCH')).toBeNull();
    expect(findEnvironmentVariable(env, '=C:')).toBe('C:\\work');
  });

  it('ignores what follows the terminating empty string (the rest of the page)', () => {
    const withTail = Buffer.concat([block('A=1'), Buffer.from('B=2\0\0', 'utf16le')]);
    expect(parseEnvironmentBlock(withTail)).toEqual([['A', '1']]);
    expect(environmentBlockLength(withTail)).toBe(block('A=1').length);
  });

  it('drops the last, possibly partial, entry of a block cut short, and says its end is not there yet', () => {
    const cut = block('A=1', 'B=22').subarray(0, 14);
    expect(parseEnvironmentBlock(cut)).toEqual([['A', '1']]);
    expect(environmentBlockLength(cut)).toBeNull();
  });

  it('ends the block only on an aligned zero character pair, not on zero bytes at an odd offset', () => {
    // 'A' NUL U+0100 is 41 00 00 00 00 01: four zero bytes, but starting at an odd offset.
    const tricky = block('A=A', '\u0100=1');
    expect(environmentBlockLength(tricky)).toBe(tricky.length);
    expect(parseEnvironmentBlock(tricky)).toEqual([
      ['A', 'A'],
      ['\u0100', '1'],
    ]);
  });
});

describe('readEnvironmentAt (ReadProcessMemory never crosses a page)', () => {
  const PAGE = 4096;
  // Two mapped pages at 0x10000; the block starts 100 bytes before the first page ends.
  const memory = Buffer.alloc(2 * PAGE, 0x41);
  const base = 0x10000n;
  const start = PAGE - 100;
  const env = block('HOLDWATCH_RUN=abc', `LONG=${'x'.repeat(300)}`);
  env.copy(memory, start);
  const reads: [number, number][] = [];
  const read = (address: bigint, bytes: number) => {
    const offset = Number(address - base);
    reads.push([offset, bytes]);
    if (Math.floor(offset / PAGE) !== Math.floor((offset + bytes - 1) / PAGE)) throw new Error('ERROR_PARTIAL_COPY: crossed a page');
    if (offset < 0 || offset + bytes > memory.length) throw new Error('ERROR_PARTIAL_COPY: unmapped');
    return Buffer.from(memory.subarray(offset, offset + bytes));
  };

  it('reads EnvironmentSize bytes in one go when the field is there', () => {
    reads.length = 0;
    expect(readEnvironmentAt(base + BigInt(start), env.length, (a, n) => Buffer.from(memory.subarray(Number(a - base), Number(a - base) + n)))).toEqual(env);
  });

  it('without EnvironmentSize, reads page by page up to the terminator and no further', () => {
    reads.length = 0;
    const got = readEnvironmentAt(base + BigInt(start), 0, read);
    expect(got).toEqual(env);
    expect(reads).toEqual([
      [start, 100],
      [PAGE, PAGE],
    ]);
    expect(findEnvironmentVariable(got, 'HOLDWATCH_RUN')).toBe('abc');
  });
});

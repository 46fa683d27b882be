import { describe, expect, it } from 'vitest';
import { parseCommandLine, splitCommandLine } from './command-line.js';

describe('splitCommandLine', () => {
  it('splits like a shell for quotes and backslashes, without expanding anything', () => {
    expect(splitCommandLine(`pytest -k "a and b" 'it''s' x\\ y "$HOME"`)).toEqual(['pytest', '-k', 'a and b', 'its', 'x y', '$HOME']);
    expect(splitCommandLine('  bats   test/  ')).toEqual(['bats', 'test/']);
    expect(splitCommandLine(`a "" b`)).toEqual(['a', '', 'b']);
  });

  it('rejects an unclosed quote', () => {
    expect(() => splitCommandLine('pytest "tests')).toThrow(/unclosed " quote/);
  });
});

describe('parseCommandLine', () => {
  it('takes leading NAME=value words as the environment', () => {
    expect(parseCommandLine('EXAMPLE_DIR=/tmp/x CI=1 bats t X=1')).toEqual({ command: ['bats', 't', 'X=1'], env: { EXAMPLE_DIR: '/tmp/x', CI: '1' } });
  });
});

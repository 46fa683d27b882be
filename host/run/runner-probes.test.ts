// What env execs is the runner: `env NAME=value bats ...` gets the formatter as `bats ...` does.
import { describe, expect, it } from 'vitest';
import { BATS_FORMATTER, prepareCommand } from './runner-probes.js';

describe('prepareCommand behind env', () => {
  it('finds the runner after env and its options and assignments, and leaves them as they were', () => {
    expect(prepareCommand(['env', 'EXAMPLE_DIR=/tmp/x', 'bats', 'tests'], false).command).toEqual([
      'env',
      'EXAMPLE_DIR=/tmp/x',
      'bats',
      '--formatter',
      BATS_FORMATTER,
      'tests',
    ]);
    expect(prepareCommand(['/usr/bin/env', '-u', 'CI', '-i', 'A=1', '--', 'bats', 't'], false)).toEqual({
      command: ['/usr/bin/env', '-u', 'CI', '-i', 'A=1', '--', 'bats', '--formatter', BATS_FORMATTER, 't'],
      probeReportsTests: true,
    });
    expect(prepareCommand(['env', 'A=1', 'node', '--test'], false, 'linux', 20).command).toContain('--test-reporter=tap');
    expect(prepareCommand(['env', 'A=1', 'mocha'], false).probeReportsTests).toBe(true);
  });

  it('leaves alone what it does not read: env -S, env alone, a plain command', () => {
    expect(prepareCommand(['env', '-S', 'bats t'], false)).toEqual({ command: ['env', '-S', 'bats t'], probeReportsTests: false });
    expect(prepareCommand(['env', 'A=1'], false)).toEqual({ command: ['env', 'A=1'], probeReportsTests: false });
    expect(prepareCommand(['pytest', '-x'], false)).toEqual({ command: ['pytest', '-x'], probeReportsTests: false });
  });
});

describe('the reporter Node would have used', () => {
  it('is tap on a pipe and spec on a terminal up to Node 22, spec everywhere from Node 23', () => {
    const usual = (terminal: boolean, major: number) => prepareCommand(['node', '--test'], terminal, 'linux', major).command[1];
    expect([usual(false, 20), usual(true, 20), usual(false, 22)]).toEqual(['--test-reporter=tap', '--test-reporter=spec', '--test-reporter=tap']);
    expect([usual(false, 24), usual(true, 24)]).toEqual(['--test-reporter=spec', '--test-reporter=spec']);
  });
});

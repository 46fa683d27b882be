// A 1 ms test that leaks, then a 1 ms test that does not: far shorter than the 100 ms poll. With both
// CPUs loaded by another process, holdwatch names the leaking test in 50 of 50 runs (the scan at each
// test's end, which the test process waits for, decides; not the poll's timing).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { distinct, runCase } from '../corpus/corpus.js';

const RUNS = 50;
const pytest = (watched: string) => [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--basetemp', watched, 'test_short.py'];

/** Two busy processes, one per CPU, for the length of the test. */
let load: ChildProcess[] = [];
beforeAll(() => {
  load = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
});
afterAll(() => {
  for (const child of load) child.kill('SIGKILL');
});

describe('1 ms tests under load', () => {
  it(`names the 1 ms test that leaked, and not the next one, in ${RUNS} of ${RUNS} runs`, async () => {
    // Two runs at a time, beside the two busy processes: more load, half the wall time.
    const halves = await Promise.all([0, 1].map(() => runCase('short-tests', pytest, RUNS / 2, { PYTHONDONTWRITEBYTECODE: '1' })));
    const runs = halves.flat();
    expect(runs.every((r) => r.exitCode === 0)).toBe(true);
    expect(distinct(runs)).toEqual([
      {
        runs: RUNS,
        summary: ['test_leaks0/leaked.txt | leaked-past-test by test-boundary | opened in test_short.py::test_leaks by test-boundary | at test_short.py:9'],
      },
    ]);
  }, 600_000);
});

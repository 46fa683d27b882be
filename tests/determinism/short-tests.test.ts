// A 1 ms test that leaks, then a 1 ms test that does not: far shorter than the 100 ms poll. With both
// CPUs loaded by another process, holdwatch names the leaking test in every run (the test process's
// own list of what it holds at each test's end decides; not the poll's timing).
import { describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { distinct } from '../corpus/corpus.js';
import { DETERMINISM_RUNS as RUNS, loadBothCpus, runInPairs } from './load.js';

const pytest = (watched: string) => [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--basetemp', watched, 'test_short.py'];

loadBothCpus();

describe('1 ms tests under load', () => {
  it(`names the 1 ms test that leaked, and not the next one, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runInPairs(RUNS, 'short-tests', pytest, () => ({ PYTHONDONTWRITEBYTECODE: '1' }));
    expect(runs.every((r) => r.exitCode === 0)).toBe(true);
    expect(distinct(runs)).toEqual([
      {
        runs: RUNS,
        summary: ['test_leaks0/leaked.txt | leaked-past-test by self-inventory | opened in test_short.py::test_leaks by self-inventory | at test_short.py:9'],
      },
    ]);
  }, 600_000);
});

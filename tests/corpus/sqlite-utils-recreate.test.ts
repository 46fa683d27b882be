// simonw/sqlite-utils#503: sqlite connections left to a GC that never frees them (README.md there).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { CORPUS, CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const pytest = (watched: string) => [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--basetemp', watched, 'test_recreate.py'];

describe('corpus: sqlite-utils test_recreate (WinError 32 on Windows)', () => {
  it(`names the same holders, verdicts, opening tests and open lines in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase('sqlite-utils-recreate', pytest, RUNS, {
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONPATH: join(CORPUS, 'sqlite-utils-recreate/site-packages'),
    });
    expectAllExitedZero(runs);
    const t = (id: string) => `test_recreate.py::test_recreate[${id}]`;
    // The test's own os.remove of the file a connection still holds: on Windows, the WinError 32 itself.
    const verdict = (deleted: boolean) => (deleted ? 'blocked-cleanup by deleted-while-held' : 'leaked-past-test by self-inventory');
    const row = (dir: string, deleted: boolean, id: string, line: number) =>
      `${dir}/data.db${deleted ? ' (deleted)' : ''} | ${verdict(deleted)} | opened in ${t(id)} by self-inventory | at test_recreate.py:${line}`;
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          row('test_recreate_False_False_0', false, 'False-False', 18),
          row('test_recreate_False_False_0', false, 'False-False', 19),
          row('test_recreate_False_True_0', false, 'False-True', 18),
          row('test_recreate_False_True_0', false, 'False-True', 19),
          row('test_recreate_False_True_0', true, 'False-True', 16),
          row('test_recreate_False_True_0', true, 'False-True', 17),
          row('test_recreate_True_False_0', false, 'True-False', 18),
          row('test_recreate_True_False_0', false, 'True-False', 19),
          row('test_recreate_True_True_0', false, 'True-True', 18),
          row('test_recreate_True_True_0', false, 'True-True', 19),
          row('test_recreate_True_True_0', true, 'True-True', 16),
          row('test_recreate_True_True_0', true, 'True-True', 17),
        ].sort(),
      },
    ]);
  }, 300_000);
});

// biopython#4365: a MafIndex's sqlite connection left to the collector, and tearDown's rmtree of its
// folder (README.md there). The runner is unittest: `python -m unittest`.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { CORPUS, CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const unittest = () => [SYSTEM_PYTHON, '-m', 'unittest', 'test_MafIO_index'];
// tempfile.mkdtemp() goes where TMPDIR says: the watched dir.
const env = (watched: string) => ({ TMPDIR: watched, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: join(CORPUS, 'biopython-mafindex/site-packages') });

describe('corpus: biopython NewIndexTest under unittest (WinError 32 in tearDown on Windows)', () => {
  it(`names the same holders, verdicts, opening tests and open lines in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase('biopython-mafindex', unittest, RUNS, env);
    expectAllExitedZero(runs);
    const leak = (test: string, line: number) =>
      `tmp*/database.sqlite3 (deleted) | blocked-cleanup by deleted-while-held | opened in test_MafIO_index.NewIndexTest.${test} by self-inventory | at test_MafIO_index.py:${line}`;
    expect(distinct(runs), rowIdentities(runs)).toEqual([{ runs: RUNS, summary: [leak('test_good_big', 27), leak('test_good_small', 23)] }]);
  }, 300_000);
});

// chipsec/chipsec#1168: a unittest test whose init raises leaves the logger's FileHandler open, and
// tearDown's os.remove of the log file fails with WinError 32 (README.md there).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { CORPUS, CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const unittest = () => [SYSTEM_PYTHON, '-m', 'unittest', 'tests.software.test_cs'];
// tempfile.mkstemp() goes where TMPDIR says: the watched dir.
const env = (watched: string) => ({ TMPDIR: watched, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: join(CORPUS, 'unittest-chipsec-logger/site-packages') });
const TEST = 'tests.software.test_cs.TestPlatformChipsecCs.test_platform_invalid';

describe('corpus: chipsec TestPlatformChipsecCs under unittest (a FileHandler left open, its file removed)', () => {
  it(`names the log file, deleted by tearDown while held, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase('unittest-chipsec-logger', unittest, RUNS, env);
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['tests.software.test_cs.TestPlatformChipsecCs.test_platform', 'passed'],
      [TEST, 'passed'],
    ]);
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      { runs: RUNS, summary: [`tmp* (deleted) | blocked-cleanup by deleted-while-held | opened in ${TEST} by self-inventory | at cs.py:44`] },
    ]);
  }, 300_000);
});

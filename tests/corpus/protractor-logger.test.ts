// angular/protractor#5411: the logger keeps an fd per setWrite and never closes it (README.md there).
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;

// The test process lives ~150 ms: some runs a poll sees it holding, some only its probe does. The
// summary must read the same either way.
describe('corpus: protractor logger_test under node --test (an fd left open per test)', () => {
  it(`names the same leaks, verdicts, opening tests and open lines in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'protractor-logger',
      () => [process.execPath, '--test', 'spec/unit/logger_test.js'],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
    );
    expectAllExitedZero(runs);
    const row = (test: string) =>
      `logger_test.log (deleted) | blocked-cleanup by deleted-while-held | opened in spec/unit/logger_test.js > the logger > ${test} by probe-open | at logger.js:17`;
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          row('log strings to file > should write debug, info, warn, and error to file'),
          row('log strings to file > should write warn and error to file'),
          row('log json objects/array to file > should write obj to file'),
        ].sort(),
      },
    ]);
  }, 300_000);
});

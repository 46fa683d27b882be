// vitest-dev/vitest#3331 (and #2618): the JUnit reporter never closes its report file, and vitest's own
// reporter tests remove it while it is open (README.md there).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const VITEST = join(REPO_ROOT, 'node_modules/.bin/vitest');
// The report files have fixed names under os.tmpdir(): nothing random to normalise.
const stable = (path: string) => path;
const FILE = 'tests/reporters.spec.ts > ';

// vitest 4 runs test files in forked workers by default; vitest 0.x, when the report was filed, in
// worker threads of its own process.
const POOLS = ['forks', 'threads'];

describe.each(POOLS)('corpus: vitest reporters spec under vitest, pool %s (the JUnit report file is never closed)', (pool) => {
  it(`names the same leaks, verdicts, opening tests and open lines in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'vitest-junit-reporter',
      // Run where vitest's own suite ran it: test/reporters, its vitest.config.ts the root's config;
      // --no-cache keeps vitest's results cache out of the case folder.
      () => [VITEST, 'run', '--root', 'test/reporters', '--no-cache', '--pool', pool],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    expectAllExitedZero(runs);
    // The spec's first test, 'JUnit reporter', opens nothing: it is in the timeline all the same.
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      [`${FILE}JUnit reporter`, 'passed'],
      [`${FILE}JUnit reporter with outputFile`, 'passed'],
      [`${FILE}JUnit reporter with outputFile in non-existing directory`, 'passed'],
    ]);
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          `junitReportDirectory/deeply/nested/report.xml (deleted) | blocked-cleanup by deleted-while-held | opened in ${FILE}JUnit reporter with outputFile in non-existing directory by probe-open | at junit.ts:72`,
          `report.xml (deleted) | blocked-cleanup by deleted-while-held | opened in ${FILE}JUnit reporter with outputFile by probe-open | at junit.ts:72`,
        ],
      },
    ]);
  }, 600_000);
});

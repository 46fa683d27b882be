// neutrinojs/neutrino#336: a suite whose `before` makes the process's working directory the folder its
// `after` removes; on Windows the removal fails with EBUSY (README.md there). Here under node --test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineOf } from '../probes/stack-support.js';
import { CORPUS, CORPUS_RUNS, distinct, distinctScopes, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const FILE = 'test/require_test.js';
const source = readFileSync(join(CORPUS, 'node-test-chdir', FILE), 'utf8');

describe('corpus: Neutrino require_test under node --test (its own cwd inside the dir its after removes)', () => {
  it(`names the test process's cwd, deleted while it was there, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'node-test-chdir',
      () => ['node', '--test', FILE],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      [`${FILE} > requires middleware relative to root`, 'passed'],
      [`${FILE} > requires middleware from root/node_modules`, 'passed'],
      [`${FILE} > forks with error middleware contains error`, 'passed'],
      [`${FILE} > throws if middleware cannot be found`, 'passed'],
    ]);
    const chdir = lineOf(source, 'process.chdir(rootPath)');
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [`test-module (deleted) | blocked-cleanup by deleted-while-held | opened in - by probe-open | at require_test.js:${chdir}`],
      },
    ]);
    // Entered in the file's before: the file had to leave it.
    expect(distinctScopes(runs)).toEqual([{ runs: RUNS, scopes: [`test-module: file ${FILE}`] }]);
  }, 300_000);
});

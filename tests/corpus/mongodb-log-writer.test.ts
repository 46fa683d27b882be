// mongodb-js/devtools-shared#514: a log writer's stream left open by a mocha test (README.md there).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const MOCHA = join(REPO_ROOT, 'node_modules/.bin/mocha');
// The test's directory and the log file carry random names.
const stable = (path: string) => path.replace(/^log-writer-test-[0-9.]+-\d+/, 'log-writer-test-*').replace(/_[0-9a-f]{24}_log$/, '_*_log');

describe('corpus: mongodb-log-writer spec under mocha (a write stream never ended)', () => {
  it(`names the same leak, verdict, opening test and open line in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'mongodb-log-writer',
      () => [MOCHA, 'mongo-log-manager.spec.js'],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['MongoLogManager > constructor throws with invalid prefixes', 'passed'],
      ['MongoLogManager > allows creating and writing to log files', 'passed'],
      ['MongoLogManager > can take a custom prefix for log files', 'passed'],
    ]);
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          'log-writer-test-*/custom_*_log (deleted) | blocked-cleanup by deleted-while-held | opened in MongoLogManager > can take a custom prefix for log files by probe-open | at mongo-log-manager.js:36',
        ],
      },
    ]);
  }, 300_000);
});

// fitnr/sqlite-json#12: the mocha suite's `before` opens a database it never closes, a test opens
// another, and the `after all` hook's rimraf fails on Windows (README.md there). The opens are an addon's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { CORPUS_RUNS, distinct, distinctScopes, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';
import { betterSqlite3BeforeAll } from './native-addon.js';

const RUNS = CORPUS_RUNS;
const MOCHA = join(REPO_ROOT, 'node_modules/.bin/mocha');
const modules = betterSqlite3BeforeAll();

describe('corpus: sqlite-json under mocha (a native addon db opened in before, another in a test)', () => {
  it(`names both dbs, each with the scope that had to close it, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'mocha-sqlite-json',
      () => [MOCHA, 'test.js'],
      RUNS,
      (watched) => ({ NODE_PATH: modules(), TMPDIR: watched }),
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => t.name)).toEqual([
      'sqliteToJson > accepts a filename',
      'sqliteToJson > calls back with all tables in the specified database',
      'sqliteToJson > exports a table to JSON',
      'sqliteToJson > filters with a where option',
    ]);
    // No probe sees an addon's open: the test process's own fd list at each scope's edges does.
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          'tmp/foo.db (deleted) | blocked-cleanup by deleted-while-held | opened in sqliteToJson > accepts a filename by self-inventory | at no open stack',
          'tmp/tmp.db (deleted) | blocked-cleanup by deleted-while-held | opened in - by self-inventory | at no open stack',
        ],
      },
    ]);
    // tmp.db was opened in the suite's before, so the suite had to close it; foo.db belongs to its test.
    expect(distinctScopes(runs)).toEqual([{ runs: RUNS, scopes: ['tmp/tmp.db: suite sqliteToJson'] }]);
  }, 600_000);
});

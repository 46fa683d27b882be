// strapi/strapi#7494: the unit-testing guide's jest suite opens its SQLite database in beforeAll and
// unlinks it in afterAll without closing it (README.md there). The open is better-sqlite3's, in C++.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { CORPUS_RUNS, distinct, distinctScopes, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';
import { betterSqlite3BeforeAll } from './native-addon.js';

const RUNS = CORPUS_RUNS;
const JEST = join(REPO_ROOT, 'node_modules/.bin/jest');
const modules = betterSqlite3BeforeAll();

describe('corpus: the Strapi guide under jest (a native addon db opened in beforeAll, unlinked in afterAll)', () => {
  it(`names the db, deleted while held past the file's beforeAll, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'jest-strapi-sqlite',
      (watched) => [JEST, '--rootDir', '.', '--cacheDirectory', join(watched, '..', 'jest-cache')],
      RUNS,
      (watched) => ({ NODE_PATH: modules(), DATABASE_FILENAME: join(watched, '.tmp/test.db') }),
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([['tests/app.test.js > strapi is defined', 'passed']]);
    // No probe sees an addon's open: the jest worker's own fd list at the file's start and end does.
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: ['.tmp/test.db (deleted) | blocked-cleanup by deleted-while-held | opened in - by self-inventory | at no open stack'],
      },
    ]);
    // Opened in the file's beforeAll: the file had to close it.
    expect(distinctScopes(runs)).toEqual([{ runs: RUNS, scopes: ['.tmp/test.db: file tests/app.test.js'] }]);
  }, 600_000);
});

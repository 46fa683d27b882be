// wix/Detox#3694: DetoxLogger's jest tests never close the loggers' file streams (README.md there).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const JEST = join(REPO_ROOT, 'node_modules/.bin/jest');
// tempfile names are random UUIDs.
const stable = (path: string) => path.replace(/^[0-9a-f-]{36}(?=\.(jsonl|log)$)/, '*');
const TEST = 'src/logger/DetoxLogger.test.js > DetoxLogger > - main functionality - > ';

describe('corpus: Detox DetoxLogger suite under jest (two streams per test never closed)', () => {
  it(`names the same leaks, verdicts, opening tests and open lines in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'detox-logger',
      // os.tmpdir() is the watched dir, as the tests want it; jest's own cache goes beside it, not in it.
      (watched) => [JEST, '--rootDir', '.', '--cacheDirectory', join(watched, '..', 'jest-cache')],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    expectAllExitedZero(runs);
    const rows = (test: string) => [
      `*.jsonl (deleted) | blocked-cleanup by deleted-while-held | opened in ${TEST}${test} by probe-open | at BunyanLogger.js:30`,
      `*.log (deleted) | blocked-cleanup by deleted-while-held | opened in ${TEST}${test} by probe-open | at DetoxLogger.test.js:34`,
    ];
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          ...rows('should log messages simultaneously to plain text and JSONL'),
          ...rows('should hide messages with a lower log level in the plain output'),
        ].sort(),
      },
    ]);
  }, 600_000);
});

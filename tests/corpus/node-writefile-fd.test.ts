// nodejs/node#38820: test-fs-writefile-with-fd leaves three fds open, and the tmpdir's exit cleanup
// fails on Windows (README.md there). A plain test file under node --test: the file is the test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineOf } from '../probes/stack-support.js';
import { CORPUS, CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const FILE = 'test/parallel/test-fs-writefile-with-fd.js';
const source = readFileSync(join(CORPUS, 'node-writefile-fd', FILE), 'utf8');

describe('corpus: a Node core test file under node --test (fds opened, never closed, the tmpdir removed at exit)', () => {
  it(`names the same leaks, verdicts, opening test and open lines in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'node-writefile-fd',
      () => ['node', '--test', FILE],
      RUNS,
      // Node's test/common/tmpdir puts the tmpdir under NODE_TEST_DIR: the watched dir.
      (watched) => ({ NODE_TEST_DIR: watched }),
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([[FILE, 'passed']]);
    const leak = (file: string, marker: string) =>
      `.tmp.0/${file} (deleted) | blocked-cleanup by deleted-while-held | opened in ${FILE} by probe-open | at test-fs-writefile-with-fd.js:${lineOf(source, marker)}`;
    const summary = [leak('test.txt', 'the read-only leak'), leak('test.txt', 'the AbortSignal leak'), leak('test1.txt', 'the writeFile() leak')];
    expect(distinct(runs), rowIdentities(runs)).toEqual([{ runs: RUNS, summary }]);
  }, 300_000);
});

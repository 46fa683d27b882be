// phuetz/code-buddy, tool-handler-filter.test.ts on Windows CI: a run journal's write stream is ended
// but not yet closed when the afterEach removes the store's temp dir (README.md there).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { lineOf } from '../probes/stack-support.js';
import { CORPUS, CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const VITEST = join(REPO_ROOT, 'node_modules/.bin/vitest');
const CASE = 'vitest-runstore-journal';
const store = readFileSync(join(CORPUS, CASE, 'src/run-store.js'), 'utf8');
// mkdtemp's six random characters read the same in every run.
const stable = (path: string) => path.replace(/^tool-handler-filter-[A-Za-z0-9]{6}\//, 'tool-handler-filter-*/');
const TEST = 'tests/tool-handler-filter.test.js > ToolHandler active tool filter enforcement > ';

describe('corpus: a RunStore journal under vitest (a write stream ended, not yet closed, its dir removed)', () => {
  it(`names the journal, deleted while held by the test that started the run, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      CASE,
      () => [VITEST, 'run', '--no-cache'],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      [`${TEST}blocks hidden mutation tools before registry execution side effects`, 'passed'],
      [`${TEST}records active filter blocks in run telemetry`, 'passed'],
    ]);
    // endRun's end() leaves the close to a later turn; the afterEach's rmSync runs before it.
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        summary: [
          `tool-handler-filter-*/run_0/events.jsonl (deleted) | blocked-cleanup by deleted-while-held | opened in ${TEST}records active filter blocks in run telemetry by probe-open | at run-store.js:${lineOf(store, "the journal's open")}`,
        ],
      },
    ]);
  }, 300_000);
});

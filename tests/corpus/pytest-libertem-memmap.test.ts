// LiberTEM/LiberTEM#1552: a module-scoped pytest fixture memory-maps a file and unlinks it at its
// teardown while a reference to the map lives on; WinError 32 on Windows (README.md there).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineOf } from '../probes/stack-support.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { CORPUS, CORPUS_RUNS, distinct, distinctScopes, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const pytest = (watched: string) => [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--basetemp', watched, 'test_frms6.py'];
const source = readFileSync(join(CORPUS, 'pytest-libertem-memmap/test_frms6.py'), 'utf8');

describe('corpus: LiberTEM test_frms6 under pytest (a memory map from a module fixture, unlinked while mapped)', () => {
  it(`names the mapped file, deleted while held past its module fixture, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase('pytest-libertem-memmap', pytest, RUNS, {
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONPATH: join(CORPUS, 'pytest-libertem-memmap/site-packages'),
    });
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['test_frms6.py::test_comparison', 'passed'],
      ['test_frms6.py::test_comparison_roi', 'passed'],
    ]);
    // One leak, one row: the map and the fd mmap.mmap keeps (a dup of the file's) are held by one process.
    const row = `data0/frms6.raw (deleted) | blocked-cleanup by deleted-while-held | opened in - by probe-open | at test_frms6.py:${lineOf(source, 'data = memmap(')}`;
    expect(distinct(runs), rowIdentities(runs)).toEqual([{ runs: RUNS, summary: [row] }]);
    // Made by the module-scoped fixture: the module had to close it, not the first test that asked.
    const scope = 'data0/frms6.raw: file test_frms6.py';
    expect(distinctScopes(runs)).toEqual([{ runs: RUNS, scopes: [scope] }]);
  }, 300_000);
});

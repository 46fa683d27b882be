// Five Go tests of 1-3 ms; the second leaves a file open. Go runs no probe, and the test binary exits a
// moment after its last test: without the syscall ledger (strace, through holdwatch's go test -exec
// program) the leak was put on no test or on the last one. With both CPUs loaded by another process,
// holdwatch names the second test, by the ledger, and none of its neighbours, in every run (50 of 50 measured).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { distinct, expectAllExitedZero, runCase } from '../corpus/corpus.js';
import { DETERMINISM_RUNS as RUNS, loadBothCpus, runInPairs } from './load.js';

const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
const goTest =
  (...flags: string[]) =>
  () => ['go', 'test', '-count=1', ...flags, '.'];
const watchedEnv = (watched: string) => ({ HW_WATCHED: watched });

loadBothCpus();

describe.skipIf(!HAS_STRACE)('1-3 ms Go tests under load, with the syscall ledger', () => {
  it(`names the second test, which leaked, and no neighbour, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runInPairs(RUNS, 'go-short-tests', goTest('-v'), watchedEnv);
    expectAllExitedZero(runs);
    expect(distinct(runs)).toEqual([
      { runs: RUNS, summary: ['second.txt | leaked-past-test by syscall-ledger | opened in TestSecond by syscall-ledger | at no open stack'] },
    ]);
  }, 600_000);

  it('reads go test -json the same way: test2json still gets the lines, the test keeps its package name', async () => {
    const runs = await runCase('go-short-tests', goTest('-json'), 3, watchedEnv);
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual(
      ['TestFirst', 'TestSecond', 'TestThird', 'TestFourth', 'TestFifth'].map((t) => [`example.com/short.${t}`, 'passed']),
    );
    expect(distinct(runs)).toEqual([
      {
        runs: 3,
        summary: ['second.txt | leaked-past-test by syscall-ledger | opened in example.com/short.TestSecond by syscall-ledger | at no open stack'],
      },
    ]);
  }, 300_000);
});

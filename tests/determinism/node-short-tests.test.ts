// 1 ms tests under node:test, jest, mocha and vitest (tests/fixtures/scopes), with both CPUs loaded by
// another process: the leaking test is named and its 1 ms neighbours are not, the before-all's
// database is held past its suite, the removed folder is the predicted failure, in every run. Each
// test process lists its own descriptors at each test's end: no scan, no poll, no timing decides.
// HOLDWATCH_DETERMINISM_RUNS raises the runs per runner (50 for the measure).
import { describe, expect, it } from 'vitest';
import { distinct } from '../corpus/corpus.js';
import { expectedSummary, SCOPES_RUNNERS } from '../fixtures/scopes/runners.js';
import { DETERMINISM_RUNS as RUNS, loadBothCpus, runInPairs } from './load.js';

loadBothCpus();

describe.each(SCOPES_RUNNERS)('$runner: 1 ms tests under load', (runner) => {
  it(`names the test that leaked, not its neighbours, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runInPairs(
      RUNS,
      runner.caseDir,
      () => runner.command,
      (watched) => ({ WORK: watched }),
    );
    expect(runs.filter((r) => r.exitCode !== 0).map((r) => r.tail)).toEqual([]);
    expect(distinct(runs)).toEqual([{ runs: RUNS, summary: expectedSummary(runner) }]);
  }, 900_000);
});

describe('node:test: a 1 ms test that starts a detached holder, under load', () => {
  it(`names the test that spawned it, and its holding as outliving the run, in ${RUNS} of ${RUNS} runs`, async () => {
    const command = [process.execPath, '--test', 'detach.test.mjs'];
    const runs = await runInPairs(
      RUNS,
      SCOPES_RUNNERS[0]!.caseDir,
      () => command,
      (watched) => ({ WORK: watched }),
    );
    expect(runs.filter((r) => r.exitCode !== 0).map((r) => r.tail)).toEqual([]);
    // Its opening is not recorded (no probe runs in sh): which test a poll first met it in is timing.
    // Its spawning test is the probe's record of the spawn call; its verdict, that it outlived the run.
    const said = runs.map((r) =>
      r.record.holders
        .map((h) => `${h.path.split('/').at(-1)} | ${h.attribution.verdict} by ${h.attribution.verdictBy} | spawned during ${h.attribution.spawnedDuring}`)
        .join('\n'),
    );
    expect(new Set(said)).toEqual(new Set(['holder.log | outlived-run by poll | spawned during detach.test.mjs > starts a holder']));
  }, 900_000);
});

// jaegertracing/jaeger#8883: the test opens two log files, hands them to a child as its stdout and
// stderr, kills and reaps the child in t.Cleanup; TempDir's cleanup then removes the files the test
// itself never closed, which fails on Windows (README.md there). Only the test binary blocks that delete:
// the syscall ledger ends the killed child's copies where strace reports it killed, before the delete.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runUnderGoTest } from './corpus.js';

const RUNS = CORPUS_RUNS;
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
const stable = (path: string) => path.replace(/^TestMemoryStorage\d+(?=\/)/, 'TestMemoryStorage*');
const log = (file: string) =>
  `TestMemoryStorage*/${file} (deleted) | blocked-cleanup by deleted-while-held | opened in TestMemoryStorage by syscall-ledger | at no open stack`;

describe('corpus: jaeger TestMemoryStorage under go test -v (log files shared with a child killed in t.Cleanup)', () => {
  it.skipIf(!HAS_STRACE)(
    `blames the test binary alone for both log files, the child spawned in TestMemoryStorage, in ${RUNS} of ${RUNS} runs`,
    async () => {
      const runs = await runUnderGoTest('jaeger-binary-logs', stable);
      expectAllExitedZero(runs);
      expect(distinct(runs), rowIdentities(runs)).toEqual([{ runs: RUNS, summary: [log('001/output_logs.txt'), log('002/error_logs.txt')] }]);
      for (const { record } of runs) {
        const blocking = record.holders.filter((h) => h.attribution.verdict !== 'in-run');
        expect(blocking.map((h) => h.commandLine.includes('-test.run=^$'))).toEqual([false, false]);
        // A scan may meet the child while it runs: a sighting, spawned in the test that started it.
        const child = record.holders.filter((h) => h.commandLine.includes('-test.run=^$') && h.kind === 'file');
        expect(child.map((h) => [h.attribution.verdict, h.attribution.spawnedDuring])).toEqual(child.map(() => ['in-run', 'TestMemoryStorage']));
      }
    },
    300_000,
  );
});

// kolide/launcher#834: newTestBoltDb opens a bolt db in the subtest's t.TempDir() and nothing closes it,
// so each TempDir cleanup removes a file the test binary still has open and mapped; on Windows that
// fails (README.md there). Go runs no probe: the syscall ledger sees the open and the cleanup's unlinkat
// while it was still open; without strace the exit stop sees the three files still held.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runTestBinaryWithoutStrace, runUnderGoTest, useGoTestBinary } from './corpus.js';

const RUNS = CORPUS_RUNS;
const CASE = 'launcher-bbolt-history';
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
// Go's TempDir names end in digits.
const stable = (path: string) => path.replace(/^(TestNewInstance\w+?)\d+(?=\/)/, '$1*');
const SUBTESTS = ['existing_instances', 'max_instances_reached', 'zero_value'];
// Deleted by the subtest's cleanup while the binary held it (on Windows that delete fails).
const expected = (by: 'syscall-ledger' | 'test-temp-dir') => [
  {
    runs: RUNS,
    summary: SUBTESTS.map(
      (s) =>
        `TestNewInstance${s}*/001/osquery_instance_history_test.db (deleted) | blocked-cleanup by deleted-while-held | opened in TestNewInstance/${s} by ${by} | at no open stack`,
    ),
  },
];

describe('corpus: kolide/launcher TestNewInstance (a bolt db never closed, removed by each subtest TempDir cleanup)', () => {
  const binary = useGoTestBinary(CASE, 'history.test');

  it.skipIf(!HAS_STRACE)(
    `under go test -v: each subtest's db, opened there by the syscall ledger, in ${RUNS} of ${RUNS} runs`,
    async () => {
      const runs = await runUnderGoTest(CASE, stable);
      expectAllExitedZero(runs);
      expect(distinct(runs), rowIdentities(runs)).toEqual(expected('syscall-ledger'));
      // The test binary holds each, never a neighbour: TestNoDbError opens nothing.
      for (const { record } of runs) {
        const found = record.holders.filter((h) => h.attribution.verdict !== 'in-run');
        expect(found.map((h) => [h.kind, h.processName])).toEqual(found.map(() => ['file', 'launcherhistory.test']));
      }
    },
    300_000,
  );

  it(`the binary run directly, without strace, stops at its exit all the same, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runTestBinaryWithoutStrace(CASE, binary, stable);
    expectAllExitedZero(runs);
    // The exit stop's scan sees each db twice, its fd and its mapping (/proc/<pid>/maps): one leak, read as
    // the fd's one row, as the ledger's run and the Wine run give it.
    expect(distinct(runs), rowIdentities(runs)).toEqual(expected('test-temp-dir'));
    for (const { record } of runs) {
      const kinds = record.holders.filter((h) => h.attribution.verdict !== 'in-run').map((h) => h.kind);
      expect(kinds).toEqual(['file', 'file', 'file']);
    }
  }, 300_000);
});

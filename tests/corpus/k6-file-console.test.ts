// grafana/k6#4607: TestFileConsole's log files stay open, which fails its TempDir cleanup on Windows
// (README.md there; under Wine in tests/wine/go-corpus-scenarios.ts). On Linux the removal succeeds and
// the test binary holds the deleted files until it exits. Through go test's -exec, and for a binary run
// directly (`go test -c`, then the binary) alike, strace's ledger tells whose each was, or without
// strace the exit stop sees them still held.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, rowIdentities, runTestBinaryWithoutStrace, runUnderGoTest, useGoTestBinary } from './corpus.js';

const RUNS = CORPUS_RUNS;
const CASE = 'k6-file-console';
// Go's temp names: the test's dir gets digits, CreateTemp's file is all digits.
const stable = (path: string) => path.replace(/^(TestFileConsole\w+?)\d+\/001\/\d+$/, '$1*/001/*');
// Deleted by the subtest's cleanup while the binary held it (on Windows that delete fails); the
// opening subtest told by strace's ledger where it runs, else by the temp dir's name.
const leak = (level: string, by: 'syscall-ledger' | 'test-temp-dir') =>
  `TestFileConsole${level}*/001/* (deleted) | blocked-cleanup by deleted-while-held | opened in TestFileConsole/${level} by ${by} | at no open stack`;
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
const expected = (by: 'syscall-ledger' | 'test-temp-dir') => [{ runs: RUNS, summary: [leak('error', by), leak('log', by)] }];

describe('corpus: k6 TestFileConsole (a file console never closed, two subtests)', () => {
  const binary = useGoTestBinary(CASE, 'console.test');

  it.skipIf(!HAS_STRACE)(
    `under go test -v: both leaks, each in its subtest by the syscall ledger, in ${RUNS} of ${RUNS} runs`,
    async () => {
      const runs = await runUnderGoTest(CASE, stable);
      // The files are deleted on Linux, so nothing fails and go test exits 0.
      expect(runs.map((r) => r.exitCode)).toEqual(runs.map(() => 0));
      expect(distinct(runs), rowIdentities(runs)).toEqual(expected('syscall-ledger'));
    },
    300_000,
  );

  it(`the binary run directly, without strace, stops at its exit all the same, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runTestBinaryWithoutStrace(CASE, binary, stable);
    expect(runs.map((r) => r.exitCode)).toEqual(runs.map(() => 0));
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['TestConsoleLevels', 'passed'],
      ['TestFileConsole', 'passed'],
      ['TestFileConsole/log', 'passed'],
      ['TestFileConsole/error', 'passed'],
      ['TestConsoleEmpty', 'passed'],
    ]);
    expect(distinct(runs), rowIdentities(runs)).toEqual(expected('test-temp-dir'));
  }, 300_000);
});

// golang/go#65545: pkgsite's TestServer fails on Windows in its TempDir cleanup, the local module's
// directory still open (README.md there). Go runs no probe: with strace, the test binary's syscall
// ledger says which subtest opened each fd and that it was still open at its end; without, the exit
// stop of holdwatch's -exec program sees what the binary still holds, and the temp dir's name says whose.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const FALLBACK_RUNS = 5;
const HAS_STRACE = spawnSync('strace', ['-V']).status === 0;
const stable = (path: string) => path.replace(/^TestServer\d+/, 'TestServer*');
const goTest = () => ['go', 'test', '-count=1', '-vet=off', '-v', './cmd/pkgsite'];

describe('corpus: pkgsite TestServer under go test -v (a directory opened by extractReadme, never closed)', () => {
  it.skipIf(!HAS_STRACE)(
    `names the same leaks, verdicts and opening subtests in ${RUNS} of ${RUNS} runs, by the syscall ledger`,
    async () => {
      // t.TempDir() is under the watched dir; Go's build cache stays where it is, outside it.
      const runs = await runCase('pkgsite-local-readme', goTest, RUNS, (watched) => ({ TMPDIR: watched }), stable);
      expectAllExitedZero(runs);
      // Two subtests load the local module: each leaves an fd on its directory, which TestServer's cleanup
      // deletes (on Windows that fails); the ledger says which subtest opened which.
      const leak = (test: string) =>
        `TestServer*/001 (deleted) | blocked-cleanup by deleted-while-held | opened in ${test} by syscall-ledger | at no open stack`;
      expect(distinct(runs), rowIdentities(runs)).toEqual([{ runs: RUNS, summary: [leak('TestServer/local'), leak('TestServer/search')] }]);
    },
    300_000,
  );

  it(`without strace, names the same leaks and their test by the temp dir's name in ${FALLBACK_RUNS} of ${FALLBACK_RUNS} runs`, async () => {
    const runs = await runCase('pkgsite-local-readme', goTest, FALLBACK_RUNS, (watched) => ({ TMPDIR: watched, HOLDWATCH_STRACE: '' }), stable);
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['TestServer', 'passed'],
      ['TestServer/local', 'passed'],
      ['TestServer/search', 'passed'],
      ['TestServer/search_unsupported', 'passed'],
    ]);
    // Two subtests load the local module: two fds on its directory, deleted by TestServer's cleanup.
    const leak = 'TestServer*/001 (deleted) | blocked-cleanup by deleted-while-held | opened in TestServer by test-temp-dir | at no open stack';
    expect(distinct(runs), rowIdentities(runs)).toEqual([{ runs: FALLBACK_RUNS, summary: [leak, leak] }]);
  }, 300_000);
});

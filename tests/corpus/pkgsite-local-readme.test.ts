// golang/go#65545: pkgsite's TestServer fails on Windows in its TempDir cleanup, the local module's
// directory still open (README.md there). Go runs no probe: the exit stop of holdwatch's -exec program
// sees what the test binary still holds, and the temp dir's name says whose it is.
import { describe, expect, it } from 'vitest';
import { distinct, expectAllExitedZero, runCase } from './corpus.js';

const RUNS = 20;
const stable = (path: string) => path.replace(/^TestServer\d+/, 'TestServer*');

describe('corpus: pkgsite TestServer under go test -v (a directory opened by extractReadme, never closed)', () => {
  it(`names the same leaks, verdicts and opening test in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'pkgsite-local-readme',
      () => ['go', 'test', '-count=1', '-vet=off', '-v', './cmd/pkgsite'],
      RUNS,
      // t.TempDir() is under the watched dir; Go's build cache stays where it is, outside it.
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['TestServer', 'passed'],
      ['TestServer/local', 'passed'],
      ['TestServer/search', 'passed'],
      ['TestServer/search_unsupported', 'passed'],
    ]);
    // Two subtests load the local module: two fds on its directory, deleted by TestServer's cleanup.
    const leak = 'TestServer*/001 (deleted) | blocked-cleanup by deleted-while-held | opened in TestServer by test-temp-dir | at no open stack';
    expect(distinct(runs)).toEqual([{ runs: RUNS, summary: [leak, leak] }]);
  }, 300_000);
});

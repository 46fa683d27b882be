// grafana/k6#4607: TestFileConsole's log files stay open, which fails its TempDir cleanup on Windows
// (README.md there; under Wine in tests/wine/go-corpus-scenarios.ts). On Linux the removal succeeds and
// the test binary holds the deleted files until it exits: the exit stop sees them deleted and held,
// through go test's -exec and for a binary run directly (`go test -c`, then the binary) alike.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS, distinct, runCase } from './corpus.js';

const RUNS = 20;
const CASE = 'k6-file-console';
// Go's temp names: the test's dir gets digits, CreateTemp's file is all digits.
const stable = (path: string) => path.replace(/^(TestFileConsole\w+?)\d+\/001\/\d+$/, '$1*/001/*');
// Deleted by the subtest's cleanup while the binary held it: on Windows that delete fails.
const leak = (level: string) =>
  `TestFileConsole${level}*/001/* (deleted) | blocked-cleanup by deleted-while-held | opened in TestFileConsole/${level} by test-temp-dir | at no open stack`;
const EXPECTED = [{ runs: RUNS, summary: [leak('error'), leak('log')] }];

describe('corpus: k6 TestFileConsole (a file console never closed, two subtests)', () => {
  let scratch = '';
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'hw-k6-bin-'));
    execFileSync('go', ['test', '-c', '-o', join(scratch, 'console.test'), '.'], {
      cwd: join(CORPUS, CASE),
      env: { ...process.env, GOFLAGS: '', GOPROXY: 'off', CGO_ENABLED: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }, 120_000);
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it(`under go test -v: both leaks, each in its subtest, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      CASE,
      () => ['go', 'test', '-count=1', '-vet=off', '-v', '.'],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    // The files are deleted on Linux, so nothing fails and go test exits 0.
    expect(runs.map((r) => r.exitCode)).toEqual(runs.map(() => 0));
    expect(distinct(runs)).toEqual(EXPECTED);
  }, 300_000);

  it(`the binary run directly goes through the exit stop all the same, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      CASE,
      () => [join(scratch, 'console.test'), '-test.v'],
      RUNS,
      (watched) => ({ TMPDIR: watched }),
      stable,
    );
    expect(runs.map((r) => r.exitCode)).toEqual(runs.map(() => 0));
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['TestConsoleLevels', 'passed'],
      ['TestFileConsole', 'passed'],
      ['TestFileConsole/log', 'passed'],
      ['TestFileConsole/error', 'passed'],
      ['TestConsoleEmpty', 'passed'],
    ]);
    expect(distinct(runs)).toEqual(EXPECTED);
  }, 300_000);
});

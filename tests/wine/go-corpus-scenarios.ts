// A real Windows teardown failure, under Wine: the corpus case k6-file-console (grafana/k6#4607, its
// README) cross-compiled with GOOS=windows, run by holdwatch's `go test -exec` program (as `go test`
// on Windows runs it) under `holdwatch run`. t.TempDir()'s cleanup really fails ("Sharing violation.",
// Wine's text), holdwatch recognises it, scans at once, and the program stops the binary at its exit.
// Registered from wine.test.ts, after its suite (one vitest file keeps every Wine process in sequence).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { host, REPO, useWindowsScratch, winPath } from './wine-harness.js';

const CASE = join(REPO, 'tests', 'corpus', 'k6-file-console');
const GO_EXEC = join(REPO, 'probes', 'go', 'exec');

function goAvailable(): boolean {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `go <args>` for windows/amd64, standard library only: nothing is downloaded. */
function goForWindows(cwd: string, args: string[]): void {
  execFileSync('go', args, {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 240_000,
    env: { ...process.env, GOOS: 'windows', GOARCH: 'amd64', CGO_ENABLED: '0', GOFLAGS: '', GOWORK: 'off', GO111MODULE: 'on', GOPROXY: 'off' },
  });
}

export function describeGoCorpusUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine || !goAvailable())(`a Go test binary's TempDir cleanup failing ${host.where}`, () => {
    const suite = useWindowsScratch('go-corpus');
    const exes = { test: '', exec: '' };
    const leftBehind: string[] = [];

    beforeAll(() => {
      exes.test = join(suite.scratch, 'k6-file-console.test.exe');
      exes.exec = join(suite.scratch, 'holdwatch-go-exec.exe');
      goForWindows(CASE, ['test', '-c', '-o', exes.test, '.']);
      goForWindows(GO_EXEC, ['build', '-o', exes.exec, '.']);
    }, 300_000);

    afterAll(() => {
      // The failed cleanups left the test's temp dirs in the prefix's %TEMP%: the binary's handles are
      // gone with it now, so they go.
      for (const dir of leftBehind) rmSync(dir, { recursive: true, force: true });
    });

    it('names the failure (Sharing violation.), the binary that held the file, and the subtest whose temp dir it was', async () => {
      const { procs, wine, scratch } = suite;
      // t.TempDir() is under %TEMP%, which Wine sets from the prefix's registry whatever the caller's
      // environment says: that folder is the one watched, as a Windows developer's would be.
      const tmp = (await procs.run('tmpdir', ['-p', 'require("os").tmpdir()'])).stdout.trim();
      expect(tmp).toMatch(/^[A-Z]:\\/);
      const out = join(scratch, 'run.json');
      const args = ['run', '--watch', tmp, '--json', winPath(out), '--', winPath(exes.exec), winPath(exes.test), '-test.v'];
      const run = await procs.run('go-corpus', [winPath(join(REPO, 'bin', 'holdwatch.js')), ...args], 180_000);

      // The real Windows failure, passed through: Wine's own text for ERROR_SHARING_VIOLATION.
      expect(run.stdout).toMatch(/testing\.go:\d+: TempDir RemoveAll cleanup: remove .*\\TestFileConsolelog\d+\\001\\\d+: Sharing violation\.\r?$/m);
      expect(run.stdout).toMatch(/^--- FAIL: TestFileConsole \(/m);
      expect(run.code, run.stderr).toBe(1);

      const record = JSON.parse(readFileSync(out, 'utf8')) as RunRecord;
      const journal = /journal (.+\.jsonl)$/m.exec(run.stderr)?.[1];
      if (journal) leftBehind.push(host.fromWindows(journal, wine), host.fromWindows(journal.replace(/\.jsonl$/, '.events.jsonl'), wine));
      for (const f of record.failures) if (f.path) leftBehind.push(host.fromWindows(f.path.replace(/\\001\\.*$/, ''), wine));
      expect(record.tests.map((t) => [t.name, t.outcome])).toEqual([
        ['TestConsoleLevels', 'passed'],
        ['TestFileConsole', 'failed'],
        ['TestFileConsole/log', 'failed'],
        ['TestFileConsole/error', 'failed'],
        ['TestConsoleEmpty', 'passed'],
      ]);

      // Each subtest's cleanup failed on its own log file, held by the test binary itself.
      const binary = 'k6-file-console.test.exe';
      expect(record.failures.map((f) => [f.test, f.kind, f.code, f.holders.map((h) => [h.path, h.processName, h.attribution.verdict])])).toEqual(
        ['log', 'error'].map((level) => [
          `TestFileConsole/${level}`,
          'sharing-violation',
          32,
          [[expect.stringMatching(new RegExp(`\\\\TestFileConsole${level}\\d+\\\\001\\\\\\d+$`)), binary, 'blocked-cleanup']],
        ]),
      );
      for (const f of record.failures) expect(f.holders[0]!.path).toBe(f.path);
      // One holder per leak, each in the subtest whose temp dir holds it; the neighbours are not named.
      // A handle a poll saw while its test ran and that was closed in it (CreateTemp's, ReadFile's) is a
      // sighting, `in-run`, and whether a poll meets it is timing: left out.
      const ours = record.holders.filter((h) => h.processName === binary && h.attribution.verdict !== 'in-run');
      expect(ours.map((h) => [h.kind, h.attribution.verdict, h.attribution.verdictBy, h.attribution.openedDuring, h.attribution.openedDuringBy])).toEqual([
        ['file', 'blocked-cleanup', 'failure-scan', 'TestFileConsole/log', 'test-temp-dir'],
        ['file', 'blocked-cleanup', 'failure-scan', 'TestFileConsole/error', 'test-temp-dir'],
      ]);

      // Stopped at ExitProcess by the -exec program, the binary still held both files: the exit stop
      // works on Windows as on Linux.
      const entries = readFileSync(host.fromWindows(journal!, wine), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { t: string; pid?: number; held?: string[] });
      const stops = entries.filter((e) => e.t === 'exit-stop');
      expect(stops.map((s) => [s.pid, s.held!.length])).toEqual([[ours[0]!.pid, 2]]);
    }, 300_000);
  });
}

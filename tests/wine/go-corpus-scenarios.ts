// Real Windows teardown failures, under Wine: the corpus cases k6-file-console (grafana/k6#4607) and
// launcher-bbolt-history (kolide/launcher#834; their READMEs) cross-compiled with GOOS=windows and run
// directly under `holdwatch run`, as CI runs a binary `go test -c` built. t.TempDir()'s cleanup really fails ("Sharing violation.", Wine's text), holdwatch
// recognises it and scans at once, and the binary runs through holdwatch's exit-stop program, which
// stops it at ExitProcess. Wine has no Windows `go` to build that program with, so the test builds it
// (GOOS=windows) into the data dir's cache where a run on Windows builds it.
// Registered from wine.test.ts, after its suite (one vitest file keeps every Wine process in sequence).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { goExecEnvironment } from '../../host/run/runners/go-exec.js';
import { host, REPO, useWindowsScratch, winPath, type NodeRun } from './wine-harness.js';

const CASE = join(REPO, 'tests', 'corpus', 'k6-file-console');
const BOLT_CASE = join(REPO, 'tests', 'corpus', 'launcher-bbolt-history');
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
    const paths = { test: '', bolt: '', data: '' };
    let tmp: string | null = null;

    beforeAll(() => {
      paths.test = join(suite.scratch, 'k6-file-console.test.exe');
      paths.data = join(suite.scratch, 'data');
      goForWindows(CASE, ['test', '-c', '-o', paths.test, '.']);
      paths.bolt = join(suite.scratch, 'launcher-history.test.exe');
      goForWindows(BOLT_CASE, ['test', '-c', '-o', paths.bolt, '.']);
      // Where a Windows run keeps the program: the same hashed folder as Linux's, an .exe name.
      const exec = `${goExecEnvironment({}, paths.data, { platform: 'linux', probesDir: join(REPO, 'probes') }).HOLDWATCH_GO_EXEC_BIN!}.exe`;
      goForWindows(GO_EXEC, ['build', '-o', exec, '.']);
    }, 300_000);

    afterAll(() => {
      // The failed cleanups left the subtests' temp dirs in the prefix's %TEMP% (the binary's handles
      // went with it): they go now, whether or not the test got as far as reading the record.
      if (tmp === null) return;
      const linuxTmp = host.fromWindows(tmp, suite.wine);
      for (const name of readdirSync(linuxTmp))
        if (/^(?:TestFileConsole(?:log|error)|TestNewInstance\w+?)\d+$/.test(name)) rmSync(join(linuxTmp, name), { recursive: true, force: true });
    });

    /** `holdwatch run` of a Go test binary under Wine, %TEMP% watched: its output, record and journal. */
    async function runGoBinary(exe: string): Promise<{ run: NodeRun; record: RunRecord; journal: { t: string; pid?: number; held?: string[] }[] }> {
      const { procs, wine, scratch } = suite;
      // t.TempDir() is under %TEMP%, which Wine sets from the prefix's registry whatever the caller's
      // environment says: that folder is the one watched, as a Windows developer's would be.
      tmp = (await procs.run('tmpdir', ['-p', 'require("os").tmpdir()'])).stdout.trim();
      expect(tmp).toMatch(/^[A-Z]:\\/);
      const out = join(scratch, 'run.json');
      const args = ['run', '--watch', tmp, '--json', winPath(out), '--', winPath(exe), '-test.v'];
      wine.env.HOLDWATCH_DATA_DIR = winPath(paths.data);
      let run: NodeRun;
      try {
        run = await procs.run('go-corpus', [winPath(join(REPO, 'bin', 'holdwatch.js')), ...args], 180_000);
      } finally {
        delete wine.env.HOLDWATCH_DATA_DIR;
      }
      const journal = /journal (.+\.jsonl)$/m.exec(run.stderr)?.[1];
      const entries = readFileSync(host.fromWindows(journal!, wine), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { t: string; pid?: number; held?: string[] });
      return { run, record: JSON.parse(readFileSync(out, 'utf8')) as RunRecord, journal: entries };
    }

    it('names the failure (Sharing violation.), the binary that held the file, and the subtest whose temp dir it was', async () => {
      const { run, record, journal } = await runGoBinary(paths.test);

      // The real Windows failure, passed through: Wine's own text for ERROR_SHARING_VIOLATION.
      expect(run.stdout).toMatch(/testing\.go:\d+: TempDir RemoveAll cleanup: remove .*\\TestFileConsolelog\d+\\001\\\d+: Sharing violation\.\r?$/m);
      expect(run.stdout).toMatch(/^--- FAIL: TestFileConsole \(/m);
      expect(run.code, run.story).toBe(1);

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

      // Run through the exit-stop program and stopped at ExitProcess, the binary still held both files:
      // the exit stop works on Windows as on Linux.
      const stops = journal.filter((e) => e.t === 'exit-stop');
      expect(stops.map((s) => [s.pid, s.held!.length])).toEqual([[ours[0]!.pid, 2]]);
    }, 300_000);

    it("names the test binary holding each subtest's bolt db, the cleanup failing on it (kolide/launcher#834)", async () => {
      const { run, record } = await runGoBinary(paths.bolt);
      expect(run.stdout).toMatch(
        /TempDir RemoveAll cleanup: remove .*\\TestNewInstancezero_value\d+\\001\\osquery_instance_history_test\.db: Sharing violation\.\r?$/m,
      );
      expect(run.code, run.story).toBe(1);
      const subtests = ['zero_value', 'existing_instances', 'max_instances_reached'];
      expect(record.failures.map((f) => [f.test, f.kind, f.code, f.holders.map((h) => [h.processName, h.kind, h.attribution.verdict])])).toEqual(
        subtests.map((s) => [`TestNewInstance/${s}`, 'sharing-violation', 32, [['launcher-history.test.exe', 'file', 'blocked-cleanup']]]),
      );
      // One holder per db, in its own subtest; TestNoDbError holds nothing.
      const ours = record.holders.filter((h) => h.attribution.verdict !== 'in-run');
      expect(ours.map((h) => [h.path.split('\\').pop(), h.attribution.verdictBy, h.attribution.openedDuring, h.attribution.openedDuringBy])).toEqual(
        subtests.map((s) => ['osquery_instance_history_test.db', 'failure-scan', `TestNewInstance/${s}`, 'test-temp-dir']),
      );
    }, 300_000);

    it("names the program by its 8.3 path in GOFLAGS when the data dir's path has a space", async () => {
      const { procs, scratch } = suite;
      const cache = join(scratch, 'Jo Smith', 'holdwatch');
      const bin = `${goExecEnvironment({}, cache, { platform: 'linux', probesDir: join(REPO, 'probes') }).HOLDWATCH_GO_EXEC_BIN!}.exe`;
      mkdirSync(dirname(bin), { recursive: true });
      writeFileSync(bin, 'the program'); // only found by its name here, never run
      const run = await procs.run('short-path', [
        winPath(join(REPO, 'tests', 'wine', 'fixtures', 'go-exec-short-path.mjs')),
        winPath(join(REPO, 'dist')),
        winPath(cache),
      ]);
      expect(run.code, run.story).toBe(0);
      const { env, program, content } = JSON.parse(run.stdout) as { env: { GOFLAGS?: string }; program: string | null; content: string | null };
      expect(program).toMatch(/^\S+~\S+$/);
      expect(env.GOFLAGS).toBe(`-count=1 -exec=${program}`);
      expect(content).toBe('the program');
    }, 120_000);
  });
}

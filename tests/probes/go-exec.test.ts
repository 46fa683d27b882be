// holdwatch's `go test -exec` program (probes/go), with the real go command and the real listener
// (host/run/boundary-server.ts): the test binary stops at its exit with its files still open until
// holdwatch answers; without holdwatch, or when it never answers, `go test` prints and exits exactly
// as it would have, and the program says why beside the probes' logs. The program is built by its
// own script, as in a run, into a scratch cache.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BoundaryExit, BoundaryTestEnd } from '../../contract/boundary.js';
import { BoundaryServer, type OnTestEnd } from '../../host/run/boundary-server.js';
import { goExitStopMisses } from '../../host/run/runners/go-exec.js';
import { REPO_ROOT } from '../support/cli.js';
import { writeGoLeakModule } from '../support/go-leak-module.js';

const SCRIPT = join(REPO_ROOT, 'probes/go/holdwatch-go-exec');

let scratch: string;
let module: string;
let server: BoundaryServer | null = null;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-go-exec-'));
  module = writeGoLeakModule(scratch);
  mkdirSync(join(scratch, 'tmp'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => {
  server?.close();
  server = null;
});

interface GoTest {
  status: number | null;
  /** stdout and stderr, durations, times and temp names made stable. */
  output: string;
}

function goTest(env: NodeJS.ProcessEnv, verbosity = ['-v']): Promise<GoTest> {
  const child = spawn('go', ['test', '-count=1', '-vet=off', ...verbosity, '.'], {
    cwd: module,
    env: { ...process.env, TMPDIR: join(scratch, 'tmp'), GOFLAGS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output: output.replace(/\d+\.\d+s/g, 'N.NNs').replace(/"Time":"[^"]*"|"Elapsed":[\d.]+/g, '') }));
  });
}

const throughExec = (boundary: string, extra: NodeJS.ProcessEnv = {}, verbosity?: string[]) =>
  goTest({ GOFLAGS: `-exec=${SCRIPT}`, HOLDWATCH_GO_EXEC_BIN: join(scratch, 'cache', 'holdwatch-go-exec'), HOLDWATCH_BOUNDARY: boundary, ...extra }, verbosity);

/** throughExec with a probes' log dir of its own: also what the program said there of a stop it missed. */
async function throughExecSaying(boundary: string, extra: NodeJS.ProcessEnv = {}): Promise<GoTest & { missed: string[] }> {
  const logDir = mkdtempSync(join(scratch, 'log-'));
  const run = await throughExec(boundary, { HOLDWATCH_PROBE_LOG: logDir, ...extra });
  return { ...run, missed: goExitStopMisses(logDir) };
}

function fdsOf(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

describe("holdwatch's go test -exec program", () => {
  it('stops the test binary at its exit, its leaked file still open, until holdwatch answers', async () => {
    const seen: { event: BoundaryTestEnd | BoundaryExit; pid: number; held: string[]; answeredAtMs: number }[] = [];
    const onStop: OnTestEnd = async (event, pid) => {
      const held = fdsOf(pid).filter((l) => l.includes('held.txt'));
      await new Promise((resolve) => setTimeout(resolve, 150)); // a slow scan
      seen.push({ event, pid, held, answeredAtMs: Date.now() });
    };
    server = await BoundaryServer.start(onStop, (error) => {
      throw error;
    });
    const plain = await goTest({});
    const startedAtMs = Date.now();
    const { missed, ...run } = await throughExecSaying(server.address);
    expect(missed).toEqual([]);
    expect(seen).toHaveLength(1);
    const [stop] = seen;
    expect(stop!.event).toMatchObject({ type: 'exit', seq: 1 });
    expect(stop!.event.atMs).toBeGreaterThanOrEqual(startedAtMs);
    // The file was deleted by TestLeaks' cleanup; the binary held it then, and still at its exit.
    expect(stop!.held).toEqual([expect.stringMatching(/\/TestLeaks\d+\/001\/held\.txt \(deleted\)$/)]);
    expect(run).toEqual(plain);
    expect(run.status).toBe(1);
    expect(run.output).toContain('--- FAIL: TestFails');
  }, 120_000);

  it('without a listener, or with one that never answers, go test prints and exits as it would have', async () => {
    const plain = await goTest({});
    const closed = await BoundaryServer.start(
      async () => {},
      () => {},
    );
    const gone = closed.address;
    closed.close();
    expect(await throughExecSaying(gone)).toEqual({
      ...plain,
      missed: [expect.stringMatching(/^leak\.test: no answer from holdwatch's boundary channel \(dial tcp .*: connection refused\)$/)],
    });
    // Not under holdwatch: nothing missed, nothing said.
    expect(await throughExecSaying('')).toEqual({ ...plain, missed: [] });
    let asked = 0;
    server = await BoundaryServer.start(
      () => {
        asked++;
        return new Promise(() => {}); // never answered: the binary goes on after one bounded wait
      },
      () => {},
    );
    expect(await throughExecSaying(server.address)).toEqual({
      ...plain,
      missed: [expect.stringMatching(/^leak\.test: holdwatch did not answer its exit within 2s \(.*i\/o timeout\)$/)],
    });
    expect(asked).toBe(1);
  }, 120_000);

  it('when the program cannot be built, the binary runs as it would have, and the build says why', async () => {
    server = await BoundaryServer.start(
      async () => {},
      () => {},
    );
    const plain = await goTest({});
    // Its place under holdwatch's data dir cannot be made (a file where a dir should be).
    const blocker = join(mkdtempSync(join(scratch, 'unbuilt-')), 'not-a-dir');
    writeFileSync(blocker, '');
    const run = await throughExecSaying(server.address, { HOLDWATCH_GO_EXEC_BIN: join(blocker, 'go-exec', 'holdwatch-go-exec') });
    expect(run).toEqual({ ...plain, missed: [`leak.test: the stop at its exit could not be built (no dir for it at ${blocker}/go-exec)`] });
  }, 120_000);

  it('a binary killed by a signal is reported by go test the same way', async () => {
    server = await BoundaryServer.start(
      async () => {},
      () => {},
    );
    const plain = await goTest({ SIGNAL: '1' });
    expect(plain.status).toBe(1);
    expect(plain.output).not.toContain('--- FAIL: TestFails'); // killed before it could say so
    expect(await throughExec(server.address, { SIGNAL: '1' })).toEqual(plain);
  }, 120_000);
});

describe.skipIf(spawnSync('strace', ['-V']).status !== 0)("holdwatch's go test -exec program with strace (the syscall ledger)", () => {
  const underStrace = (logDir: string, extra: NodeJS.ProcessEnv = {}, verbosity?: string[]) =>
    throughExec('', { HOLDWATCH_STRACE: 'strace', HOLDWATCH_PROBE_LOG: logDir, ...extra }, verbosity);
  const ledgers = (logDir: string) => readdirSync(logDir).filter((n) => /^strace-\d+-\d+\.ledger$/.test(n));

  it("runs the binary under strace, go test printing and exiting as it would have, and leaves the binary's ledger beside the probes' logs", async () => {
    const logDir = mkdtempSync(join(scratch, 'probes-'));
    const plain = await goTest({});
    expect(await underStrace(logDir)).toEqual(plain);
    const [ledger] = ledgers(logDir);
    const text = readFileSync(join(logDir, ledger!), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^\d+ +\d+\.\d{6} execve\(".*leak\.test", .* = 0$/);
    expect(text).toMatch(/write\(1<[^>]*>, "=== RUN   TestLeaks\\n", \d+\) = \d+/);
    expect(text).toMatch(/openat\(AT_FDCWD<[^>]*>, ".*\/TestLeaks\d+\/001\/held\.txt", .*\) = \d+<.*held\.txt>/);
  }, 120_000);

  it("traces a quiet binary's opens but not its writes, which carry no test lines without -v; -json's are traced", async () => {
    const ledgerOf = async (verbosity: string[]) => {
      const logDir = mkdtempSync(join(scratch, 'probes-'));
      const plain = await goTest({}, verbosity);
      expect(await underStrace(logDir, {}, verbosity)).toEqual(plain);
      const [ledger] = ledgers(logDir);
      return readFileSync(join(logDir, ledger!), 'utf8');
    };
    const quiet = await ledgerOf([]);
    expect(quiet).toMatch(/openat\(AT_FDCWD<[^>]*>, ".*\/TestLeaks\d+\/001\/held\.txt", .*\) = \d+<.*held\.txt>/);
    expect(quiet).not.toMatch(/ write\(/);
    expect(await ledgerOf(['-json'])).toMatch(/write\(1<[^>]*>, ".*=== RUN   TestLeaks\\n", \d+\) = \d+/);
  }, 120_000);

  it('a binary killed by a signal is reported by go test the same way under strace', async () => {
    const logDir = mkdtempSync(join(scratch, 'probes-'));
    const plain = await goTest({ SIGNAL: '1' });
    expect(await underStrace(logDir, { SIGNAL: '1' })).toEqual(plain);
  }, 120_000);

  it('when strace does not run the binary, the binary runs as it would have, and no ledger is left', async () => {
    const logDir = mkdtempSync(join(scratch, 'probes-'));
    const plain = await goTest({});
    expect(await underStrace(logDir, { HOLDWATCH_STRACE: 'false' })).toEqual(plain);
    expect(ledgers(logDir)).toEqual([]);
  }, 120_000);
});

// `holdwatch attach`: runs holdwatch did not start, followed by pid or announced by a probe added by hand.
// Real processes throughout: a real pytest with the plugin on PYTHONPATH, real holders, real signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { REPO_ROOT, runCli, startCli } from '../support/cli.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';

let scratch: string;
const started = new Set<ChildProcess>();

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-attach-'));
});

afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fresh watched dir and data dir for one test. */
function fresh(name: string) {
  const work = join(scratch, name, 'work');
  const data = join(scratch, name, 'data');
  mkdirSync(work, { recursive: true });
  mkdirSync(data, { recursive: true });
  return { work, data, out: join(scratch, name) };
}

function track<T extends ChildProcess>(child: T): T {
  started.add(child);
  return child;
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

function attach(args: string[], data: string) {
  const cli = startCli(['attach', ...args], { env: { HOLDWATCH_DATA_DIR: data } });
  track(cli.child);
  return cli;
}

const readRecord = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as RunRecord;

/** The journal is written through as the run goes: wait until it shows a holder appearing. */
async function journalShowsHolder(data: string, runId: string): Promise<void> {
  const journal = join(data, 'runs', `${runId}.jsonl`);
  for (let i = 0; i < 300; i++) {
    if (existsSync(journal) && readFileSync(journal, 'utf8').includes('"t":"appeared"')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no holder appeared in ${journal}`);
}

const runIdOf = (line: string) => /run (\S+)$/.exec(line)![1]!;

describe('holdwatch attach --pid', () => {
  it('follows a pytest started outside holdwatch: leaked-past-test, with the test names its plugin announced', async () => {
    const { work, data, out } = fresh('pytest-pid');
    const recordPath = join(out, 'record.json');
    const reportPath = join(out, 'report.md');
    // The runner waits on stdin until holdwatch has attached, then execs pytest in the same process:
    // what an IDE's test button does, minus the timing luck.
    const runner = track(
      spawn(
        '/bin/sh',
        [
          '-c',
          'read go; exec "$0" "$@"',
          SYSTEM_PYTHON,
          '-m',
          'pytest',
          '-p',
          'holdwatch_pytest',
          '-p',
          'no:cacheprovider',
          '-q',
          join(REPO_ROOT, 'examples/pytest-leak'),
        ],
        {
          cwd: out,
          stdio: ['pipe', 'pipe', 'ignore'],
          env: {
            ...process.env,
            HOLDWATCH_DATA_DIR: data,
            EXAMPLE_DIR: work,
            PYTHONPATH: join(REPO_ROOT, 'probes/python-runners'),
            PYTHONDONTWRITEBYTECODE: '1',
          },
        },
      ),
    );
    let runnerOutput = '';
    runner.stdout.on('data', (d: Buffer) => (runnerOutput += d));
    const hw = attach(['--pid', String(runner.pid), '--watch', work, '--json', recordPath, '--report', reportPath], data);
    await hw.waitForStderrLine((l) => l.includes(`attached to pid ${runner.pid}`));
    runner.stdin.end('go\n');
    expect(await exited(runner)).toEqual({ code: 0, signal: null });
    expect(runnerOutput).toContain('2 passed');
    expect(await exited(hw.child)).toEqual({ code: 0, signal: null });

    const record = readRecord(recordPath);
    expect(record.command[0]).toBe('/bin/sh'); // the process as it was when holdwatch attached
    expect(record.exitCode).toBeNull(); // not holdwatch's child: its exit code is not ours to know
    expect(record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['test_leak.py::test_writes_log', 'passed'],
      ['test_leak.py::test_later_work', 'passed'],
    ]);
    const log = record.holders.find((h) => h.path === join(work, 'session.log') && h.kind === 'file');
    expect(log).toBeDefined();
    expect(log!.pid).toBe(runner.pid);
    expect(log!.attribution).toMatchObject({ verdict: 'leaked-past-test', firstSeenDuring: 'test_leak.py::test_writes_log' });
    expect(readFileSync(reportPath, 'utf8')).toContain('session.log');
    // Recorded, so the announce file is gone; the last listener out took the inbox with it.
    expect(existsSync(join(data, 'inbox'))).toBe(false);
  });

  it('follows a plain process tree until it exits, and records the command line it attached to', async () => {
    const { work, data, out } = fresh('tree');
    const recordPath = join(out, 'record.json');
    const held = join(work, 'held.txt');
    const script = `${SYSTEM_PYTHON} -c 'import sys; f = open(sys.argv[1], "w"); print("ready", flush=True); sys.stdin.read()' "$0"; echo done`;
    const tree = track(spawn('/bin/sh', ['-c', script, held], { stdio: ['pipe', 'pipe', 'inherit'] }));
    await new Promise<void>((resolve) => tree.stdout.on('data', (d: Buffer) => String(d).includes('ready') && resolve()));
    const hw = attach(['--pid', String(tree.pid), '--watch', work, '--json', recordPath], data);
    const runId = runIdOf(await hw.waitForStderrLine((l) => l.includes('attached to pid')));
    await journalShowsHolder(data, runId);
    tree.stdin.end(); // the holder reads EOF and exits, then the shell
    expect(await exited(tree)).toEqual({ code: 0, signal: null });
    expect(await exited(hw.child)).toEqual({ code: 0, signal: null });

    const record = readRecord(recordPath);
    expect(record.runId).toBe(runId);
    expect(record.command).toEqual(['/bin/sh', '-c', script, held]);
    const holder = record.holders.find((h) => h.path === held);
    expect(holder).toBeDefined();
    expect(holder!.pid).not.toBe(tree.pid); // the shell's child...
    expect(holder!.attribution.verdict).not.toBe('outside-run'); // ...is part of the run
    expect(holder!.attribution.ancestry.map((a) => a.pid)).toContain(tree.pid);
    // A plain tree reports no tests: holdwatch says why, rather than a bare "0 tests".
    await hw.waitForStderrLine((l) => l.startsWith(`holdwatch: no tests recorded for run ${runId}: the process reported none`));
    // As after `run`: the answer, then where the report is.
    await hw.waitForStderrLine((l) => l.startsWith('holdwatch: No teardown failed'));
    await hw.waitForStderrLine((l) => l === `holdwatch: the report: ${recordPath}`);
  });

  it('started inside the watched dir with --watch ., steps out: never holds it, never lists itself', async () => {
    const { work, data, out } = fresh('inside');
    const recordPath = join(out, 'record.json');
    const held = join(work, 'held.txt');
    const script = `${SYSTEM_PYTHON} -c 'import sys; f = open(sys.argv[1], "w"); print("ready", flush=True); sys.stdin.read()' "$0"`;
    const tree = track(spawn('/bin/sh', ['-c', script, held], { stdio: ['pipe', 'pipe', 'inherit'], cwd: out }));
    await new Promise<void>((resolve) => tree.stdout.on('data', (d: Buffer) => String(d).includes('ready') && resolve()));
    const hw = startCli(['attach', '--pid', String(tree.pid), '--watch', '.', '--json', recordPath], { cwd: work, env: { HOLDWATCH_DATA_DIR: data } });
    track(hw.child);
    const runId = runIdOf(await hw.waitForStderrLine((l) => l.includes('attached to pid')));
    await journalShowsHolder(data, runId);
    // While it follows the run, holdwatch's cwd is no longer the watched dir.
    expect(readlinkSync(`/proc/${hw.child.pid}/cwd`)).not.toMatch(new RegExp(`^${work}(/|$)`));
    tree.stdin.end();
    expect(await exited(hw.child)).toEqual({ code: 0, signal: null });
    const record = readRecord(recordPath);
    expect(record.holders.map((h) => h.path)).toEqual([held]);
    expect(record.holders.some((h) => h.pid === hw.child.pid)).toBe(false);
  });

  it('on SIGTERM records the run as it stands, exits 0, and leaves the attached process alone', async () => {
    const { work, data, out } = fresh('sigterm');
    const recordPath = join(out, 'record.json');
    const sleeper = track(spawn('/bin/sh', ['-c', 'read x'], { stdio: ['pipe', 'ignore', 'ignore'] }));
    const hw = attach(['--pid', String(sleeper.pid), '--watch', work, '--json', recordPath], data);
    await hw.waitForStderrLine((l) => l.includes('attached to pid'));
    hw.child.kill('SIGTERM');
    expect(await exited(hw.child)).toEqual({ code: 0, signal: null });
    expect(readRecord(recordPath).command).toEqual(['/bin/sh', '-c', 'read x']);
    expect(sleeper.exitCode).toBeNull(); // still running: attach never kills
    expect(sleeper.signalCode).toBeNull();
  });
});

describe('holdwatch attach (no --pid): runs announced by a probe added by hand', () => {
  it('picks up a pytest run from the inbox, records it with its own report, and removes its file', async () => {
    const { work, data, out } = fresh('inbox');
    const hw = attach(['--watch', work, '--json', join(out, 'run.json')], data);
    await hw.waitForStderrLine((l) => l.includes('waiting for runs announced'));
    expect(existsSync(join(data, 'inbox'))).toBe(true);
    const pytestArgs = ['-m', 'pytest', '-p', 'holdwatch_pytest', '-p', 'no:cacheprovider', '-q', join(REPO_ROOT, 'examples/pytest-leak')];
    const pytest = track(
      spawn(SYSTEM_PYTHON, pytestArgs, {
        cwd: out,
        stdio: 'ignore',
        env: {
          ...process.env,
          HOLDWATCH_DATA_DIR: data,
          EXAMPLE_DIR: work,
          PYTHONPATH: join(REPO_ROOT, 'probes/python-runners'),
          PYTHONDONTWRITEBYTECODE: '1',
        },
      }),
    );
    const following = await hw.waitForStderrLine((l) => l.includes(`following pid ${pytest.pid}`));
    const runId = runIdOf(following);
    expect(await exited(pytest)).toEqual({ code: 0, signal: null });
    await hw.waitForStderrLine((l) => l.startsWith(`holdwatch: run ${runId}: `), 20_000);
    expect(readdirSync(join(data, 'inbox')).filter((n) => n.endsWith('.jsonl'))).toEqual([]); // recorded, removed
    hw.child.kill('SIGTERM');
    expect(await exited(hw.child)).toEqual({ code: 0, signal: null });
    expect(existsSync(join(data, 'inbox'))).toBe(false);

    const record = readRecord(join(out, `run-${runId}.json`));
    expect(record.command).toEqual([SYSTEM_PYTHON, ...pytestArgs]); // from the announcement
    expect(record.cwd).toBe(out);
    expect(record.tests.map((t) => t.name)).toEqual(['test_leak.py::test_writes_log', 'test_leak.py::test_later_work']);
    const log = record.holders.find((h) => h.path === join(work, 'session.log') && h.kind === 'file');
    expect(log?.attribution).toMatchObject({ verdict: 'leaked-past-test', firstSeenDuring: 'test_leak.py::test_writes_log' });
  });
});

describe('holdwatch attach: bad input is one line and exit 2', () => {
  const cases: [string, (d: { work: string; data: string }) => string[], RegExp][] = [
    ['a pid that is not a number', ({ work }) => ['--pid', 'abc', '--watch', work], /^holdwatch: invalid pid: abc\n$/],
    ['a pid with no process', ({ work }) => ['--pid', '2147483647', '--watch', work], /^holdwatch: no process with pid 2147483647\n$/],
    ['no --watch', () => ['--pid', '1'], /^holdwatch: no directory to watch: add --watch <dir>\n$/],
    [
      'an inbox inside the watched dir',
      ({ data }) => (mkdirSync(join(data, 'inbox')), ['--pid', '1', '--watch', join(data, 'inbox')]),
      /^holdwatch: the inbox .* is inside the watched directory .*\n$/,
    ],
  ];
  it.each(cases)('%s', async (name, args, message) => {
    const dirs = fresh(`bad-${name.replace(/\W+/g, '-')}`);
    const result = await runCli(['attach', ...args(dirs)], { env: { HOLDWATCH_DATA_DIR: dirs.data } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

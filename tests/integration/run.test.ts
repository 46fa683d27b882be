// `holdwatch run` end to end with real commands: output bytes and exit codes pass through unchanged,
// holders are attributed to tests, failure lines trigger a snapshot at that moment.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { runUnderHoldwatch, SYSTEM_PYTHON } from '../support/run-cli.js';

let dir: string;
const OPEN_LINE = 21; // examples/pytest-leak/test_leak.py: log = open(work_dir() / "session.log", "w")

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-run-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Every byte value, invalid UTF-8 included, with no trailing newline.
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const writeBytes = (fd: 1 | 2, code: number) =>
  `{ const b=Buffer.from(Array.from({length:256},(_,i)=>i)); require("fs").writeSync(${fd}, b); require("fs").writeSync(${fd}, b); process.exitCode=${code}; }`;

describe('pass-through', () => {
  it.each([0, 1, 3])('stdout and stderr bytes and exit code %i are unchanged', async (code) => {
    const out = await runUnderHoldwatch([dir], [process.execPath, '-e', `${writeBytes(1, code)} ${writeBytes(2, code)}`]);
    expect(out.code, `stderr: ${out.stderr}`).toBe(code);
    expect(out.stdoutBytes.equals(Buffer.concat([ALL_BYTES, ALL_BYTES]))).toBe(true);
    // holdwatch's own summary goes to stderr after the command's bytes; the command's bytes are intact.
    expect(out.stderrBytes.subarray(0, 512).equals(Buffer.concat([ALL_BYTES, ALL_BYTES]))).toBe(true);
    expect(out.record.exitCode).toBe(code);
  });

  it('exits 128+n when the command dies of a signal', async () => {
    const out = await runUnderHoldwatch([dir], ['sh', '-c', 'kill -TERM $$']);
    expect(out.code).toBe(143);
    const killed = await runUnderHoldwatch([dir], ['sh', '-c', 'kill -KILL $$']);
    expect(killed.code).toBe(137);
  });

  it('passes stdin through', async () => {
    const out = await runUnderHoldwatch([dir], ['sh', '-c', 'test -t 0 || cat; echo done']);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('done\n');
  });

  it('refuses a missing command, no command and no --watch with exit 2 and one line', async () => {
    const env = { HOLDWATCH_DATA_DIR: join(dir, '..', 'hw-run-data-bad') };
    for (const [args, message] of [
      [['run', '--watch', dir, '--', 'definitely-not-a-command-xyz'], /command not found: definitely-not-a-command-xyz/],
      [['run', '--watch', dir], /missing required argument/],
      [['run', '--', 'true'], /no directory to watch/],
      [['run', '--watch', join(dir, 'nope'), '--', 'true'], /no such directory/],
    ] as const) {
      const result = await runCli([...args], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('refuses a data directory inside the watched directory', async () => {
    const result = await runCli(['run', '--watch', dir, '--', 'true'], { env: { HOLDWATCH_DATA_DIR: join(dir, 'data') } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/inside the watched directory/);
  });
});

describe('attribution', () => {
  it('a Python test that leaves a file open: leaked-past-test, naming that test', async () => {
    const work = join(dir, 'pytest-leak');
    const reportPath = join(dir, '..', `${basename(dir)}-pytest-report.md`);
    const out = await runUnderHoldwatch(
      [dir],
      [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', join(REPO_ROOT, 'examples/pytest-leak')],
      { EXAMPLE_DIR: work },
      { extraArgs: ['--report', reportPath] },
    );
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/2 passed/);
    const names = out.record.tests.map((t) => t.name);
    expect(names).toEqual([expect.stringMatching(/test_leak\.py::test_writes_log$/), expect.stringMatching(/test_leak\.py::test_later_work$/)]);
    const log = out.record.holders.find((h) => h.path === join(work, 'session.log'));
    expect(log).toBeDefined();
    expect(log!.attribution.verdict).toBe('leaked-past-test');
    expect(log!.attribution.firstSeenDuring).toMatch(/::test_writes_log$/);
    expect(log!.attribution.ancestry[0]!.pid).toBe(log!.pid);
    // The open-time stack: the probe recorded the open(...) line of the test.
    const open = log!.attribution.openStack;
    expect(open?.found).toBe(true);
    const userFrame = open!.found ? open!.stack.frames.find((f) => f.user) : undefined;
    expect(userFrame).toMatchObject({ file: join(REPO_ROOT, 'examples/pytest-leak/test_leak.py'), line: OPEN_LINE, function: 'test_writes_log' });
    // Above the test the walk ends at pytest's call of it: pluggy's dozen frames are not recorded.
    const outermost = open!.found ? open!.stack.frames.at(-1) : undefined;
    expect(outermost).toMatchObject({ function: 'pytest_pyfunc_call', user: false });
    expect(outermost?.file).toMatch(/_pytest[/\\]python\.py$/);
    expect(out.record.leftovers.map((l) => l.path)).toContain(work);
    const report = readFileSync(reportPath, 'utf8');
    rmSync(reportPath);
    expect(report).toMatch(/leaked-past-test/);
    expect(report).toContain('pytest-leak/session.log');
    expect(report).toMatch(/test_writes_log/);
    expect(report).toContain(`test_leak.py:${OPEN_LINE}`);
  });

  it('a handle its holder closed just before the failure line is not a second blocker while that process still holds the path', async () => {
    // As rmSync's lstat/chmod retries on Windows open the file they cannot delete: a second handle in
    // the process that holds it, gone by the time the failure line is printed.
    const script = `
import sys, time
p = sys.argv[1]
lock = open(p, "w")
time.sleep(0.5)
moment = open(p)
time.sleep(0.5)
moment.close()
time.sleep(0.15)
print("OSError: [Errno 16] Device or resource busy: '" + p + "'", flush=True)
time.sleep(0.5)
`;
    const target = join(dir, 'busy.lock');
    const out = await runUnderHoldwatch([dir], [SYSTEM_PYTHON, '-c', script, target]);
    // The focus polls saw both handles (else this test could not fail) ...
    expect(out.record.holders.filter((h) => h.path === target)).toHaveLength(2);
    // ... and the failure names the one still open.
    expect(out.record.failures).toHaveLength(1);
    const blockers = out.record.failures[0]!.holders;
    expect(blockers).toHaveLength(1);
    expect(blockers[0]!.handle).toBe(out.record.holders.find((h) => h.path === target && h.attribution.verdict === 'blocked-cleanup')?.handle);
  });

  it('a failure line triggers a snapshot naming a detached holder, attributed through the run tag', async () => {
    // script -> launcher (exits at once) -> writer in a new session: the writer is reparented.
    const launcher = [
      'import subprocess, sys',
      'subprocess.Popen([sys.executable, "-c", "import time,sys; f=open(sys.argv[1],\'a\'); time.sleep(4)", sys.argv[1] + "/out.log"], start_new_session=True)',
    ].join('\n');
    const script = `
import os, subprocess, sys, time
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
subprocess.run([sys.executable, "-c", sys.argv[2], d])
time.sleep(0.8)
print("OSError: [Errno 39] Directory not empty: '" + d + "'", flush=True)
time.sleep(0.3)
`;
    const target = join(dir, 'detached');
    const out = await runUnderHoldwatch([dir], ['python3', '-c', script, target, launcher]);
    expect(out.record.failures).toHaveLength(1);
    const [failure] = out.record.failures;
    expect(failure!.kind).toBe('directory-not-empty');
    expect(failure!.path).toBe(target);
    const holder = failure!.holders.find((h) => h.path === join(target, 'out.log'));
    expect(holder).toBeDefined();
    expect(holder!.attribution.verdict).toBe('blocked-cleanup');
    // The spawn-time stack: the launcher's Popen line (line 2 of its code), though the launcher is gone.
    const spawn = holder!.attribution.spawnStack;
    expect(spawn?.found).toBe(true);
    expect(spawn!.found ? spawn!.stack.frames.find((f) => f.user) : undefined).toMatchObject({ file: '<string>', line: 2 });
    // The launcher is long gone: the writer lives on reparented, tied to the run by its tag and ancestry.
    const launcherPid = spawn!.found ? spawn!.stack.pid : -1;
    expect(() => process.kill(launcherPid, 0)).toThrow();
  });
});

describe('a journal that ends while holdwatch was finishing', () => {
  it('names the step it stopped at, in the JSON record and the Markdown summary', async () => {
    const data = mkdtempSync(join(tmpdir(), 'hw-run-stage-'));
    const watched = mkdtempSync(join(tmpdir(), 'hw-run-stage-w-'));
    try {
      const run = await runCli(['run', '--watch', watched, '--', 'true'], { env: { HOLDWATCH_DATA_DIR: data } });
      expect(run.code).toBe(0);
      const journal = /journal (\S+\.jsonl)$/m.exec(run.stderr)![1]!;
      const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
      const stages = lines.filter((l) => l.includes('"t":"stage"')).map((l) => (JSON.parse(l) as { stage: string }).stage);
      expect(stages).toEqual(['the final scan', 'the snapshots still queued', 'listing the leftovers', 'matching the probes’ stacks']);
      // As if holdwatch had been killed while it listed the leftovers: the journal stops there.
      const cut = join(data, 'cut.jsonl');
      writeFileSync(cut, lines.slice(0, lines.findIndex((l) => l.includes('listing the leftovers')) + 1).join('\n') + '\n');
      const json = await runCli(['report', cut, '--format', 'json']);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ endedAt: null, exitCode: null, stoppedWhile: 'listing the leftovers' });
      const md = await runCli(['report', cut]);
      expect(md.stdout).toContain('did not finish: holdwatch stopped at listing the leftovers');
      // A whole journal has no such field.
      expect(JSON.parse((await runCli(['report', journal, '--format', 'json'])).stdout)).not.toHaveProperty('stoppedWhile');
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(watched, { recursive: true, force: true });
    }
  });
});

describe('holdwatch never holds what it watches', () => {
  it('started inside the watched dir, run steps out: not listed itself, the command keeps its cwd, relative reports land where typed', async () => {
    const watched = mkdtempSync(join(tmpdir(), 'hw-run-inside-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'hw-run-reports-'));
    try {
      // Typed from inside the watched dir; the report's relative path is from there too, so it is refused.
      const refused = await runCli(['run', '--watch', '.', '--json', 'inside.json', '--', 'true'], { cwd: watched, env: { HOLDWATCH_DATA_DIR: elsewhere } });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`report ${join(watched, 'inside.json')} would be written inside the watched directory`);
      // The shell's child lives until a poll has met it: a fixed `sleep 1` was gone before the first
      // poll that could list it on a loaded machine (the run's first system scan holds the polls back).
      const running = runUnderHoldwatch(['.'], ['sh', '-c', 'pwd; sleep 20 || true'], { HOLDWATCH_DATA_DIR: elsewhere }, { cwd: watched });
      const sleeper = await childSeenSleeping(join(elsewhere, 'runs'), 20_000);
      if (sleeper !== null) process.kill(sleeper, 'SIGTERM');
      const out = await running;
      expect(out.code).toBe(0);
      expect(out.stdout.trim()).toBe(watched); // the command's cwd is the one it was given
      expect(out.record.holders.filter((h) => h.commandLine.includes('holdwatch.js'))).toEqual([]);
      // The command's shell has its cwd there, and sleep, its child, the same one: one row.
      const shell = out.record.holders.find((h) => h.processName === 'sh' && h.kind === 'cwd');
      expect(shell?.alsoHeldBy?.map((a) => a.processName)).toEqual(['sleep']);
    } finally {
      rmSync(watched, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  }, 60_000);
});

/**
 * The pid of a `sleep` a run's journal (the one in `runsDir`) shows holding its cwd, once it does; null
 * when none did within `withinMs` (the sleep then ends by itself, and the test reads the record).
 */
async function childSeenSleeping(runsDir: string, withinMs: number): Promise<number | null> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    const journals = existsSync(runsDir) ? readdirSync(runsDir).filter((f) => f.endsWith('.jsonl') && !f.endsWith('.events.jsonl')) : [];
    for (const journal of journals) {
      // Whole lines only: the last may be being written.
      for (const line of readFileSync(join(runsDir, journal), 'utf8').split('\n').slice(0, -1)) {
        if (!line.includes('"holder"')) continue;
        const entry = JSON.parse(line) as { t: string; holder: { pid: number; processName: string; kind: string } };
        if ((entry.t === 'appeared' || entry.t === 'changed') && entry.holder.processName === 'sleep' && entry.holder.kind === 'cwd') return entry.holder.pid;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}

describe('a failure blocked by one process while the cleanup lists the folder', () => {
  // Open at the failure line (rmtree's scandir), or closed again just before it (`rm -r` lists the
  // folder, closes it, then its rmdir fails: seen named as a blocker in the bats example's frozen view).
  it.each([
    ['still open at the failure', ''],
    ['closed just before the failure', 'listing.close(); time.sleep(0.3)'],
  ])("names the holder, not the cleanup's own handle on the folder it was deleting (%s)", async (_, afterListing) => {
    const watched = mkdtempSync(join(tmpdir(), 'hw-run-cleanup-'));
    try {
      const cleanup = [
        'import os, subprocess, sys, time',
        'd = sys.argv[1]',
        'held = os.path.join(d, "held.txt")',
        'child = subprocess.Popen([sys.executable, "-c", "import sys, time\\nf = open(sys.argv[1], \\"w\\")\\nprint(\\"ready\\", flush=True)\\ntime.sleep(30)", held], stdout=subprocess.PIPE)',
        'child.stdout.readline()',
        'listing = os.scandir(d)  # the cleanup lists the folder it deletes, as rmtree does',
        // A slow listing: polls meet the cleanup's handle before the failed delete (a loaded full run did so).
        'time.sleep(0.4)',
        afterListing,
        // rmtree's last step: removing the folder itself, which the held file keeps from being empty.
        'print(f"OSError: [WinError 145] The directory is not empty: {d!r}", flush=True)',
        'time.sleep(1)',
        'child.kill()',
      ].join('\n');
      const out = await runUnderHoldwatch([watched], [SYSTEM_PYTHON, '-c', cleanup, watched]);
      expect(out.code).toBe(0);
      const [failure] = out.record.failures;
      expect(failure?.holders.map((h) => `${h.kind} ${basename(h.path)}`)).toEqual(['file held.txt']);
    } finally {
      rmSync(watched, { recursive: true, force: true });
    }
  });
});

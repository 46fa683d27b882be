// What a terminal or a CI log shows last after `holdwatch run`: the answer (file, process, test, open
// line, the Windows consequence) and where the report is; `--quiet` keeps the counts line alone. And
// the report's first screen in a temp dir shared with another program's 500 open files: the run's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';

const LEAKING_TEST = `import os

_kept = []

def test_append_log():
    _kept.append(open(os.path.join(os.environ["WORK_DIR"], "app.log"), "a"))  # the leak

def test_after():
    assert True
`;

let dir: string;
let work: string;
let data: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-e2e-end-'));
  work = join(dir, 'work');
  data = join(dir, 'data');
  mkdirSync(work);
  mkdirSync(join(dir, 'suite'));
  writeFileSync(join(dir, 'suite', 'test_store.py'), LEAKING_TEST);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pytest = [SYSTEM_PYTHON, '-m', 'pytest', '-p', 'no:cacheprovider', '-q', 'suite'];
const lastLines = (stderr: string, n: number) => stderr.trimEnd().split('\n').slice(-n);

describe('holdwatch run: the answer is the last thing it prints', () => {
  it('ends with the headline of the report, then the report path', async () => {
    const run = await runCli(['run', '--watch', work, '--report', 'x.md', '--', ...pytest], { cwd: dir, env: { HOLDWATCH_DATA_DIR: data, WORK_DIR: work } });
    expect(run.code).toBe(0);
    const report = readFileSync(join(dir, 'x.md'), 'utf8');
    const headline = report
      .split('\n')[0]!
      .replace(/^\*\*|\*\*$/g, '')
      .replace(/`/g, '');
    const [headlineLine, whereLine] = lastLines(run.stderr, 2);
    expect(headlineLine).toBe(`holdwatch: ${headline}`);
    // File, process, test, open line and the Windows consequence, in one line.
    expect(headlineLine).toMatch(
      /python3? PID \d+ still held app\.log, opened in suite\/test_store\.py::test_append_log at suite\/test_store\.py:6, .*WinError 32/,
    );
    expect(whereLine).toBe('holdwatch: the report: x.md');
  });

  it('without a report file, says the command that renders it', async () => {
    const run = await runCli(['run', '--watch', work, '--', ...pytest], { cwd: dir, env: { HOLDWATCH_DATA_DIR: data, WORK_DIR: work } });
    const runId = /holdwatch: run (\S+):/.exec(run.stderr)![1]!;
    expect(lastLines(run.stderr, 1)).toEqual([`holdwatch: the report: holdwatch report ${runId}`]);
  });

  it('--quiet ends with the counts line alone', async () => {
    const run = await runCli(['run', '--watch', work, '--quiet', '--', ...pytest], { cwd: dir, env: { HOLDWATCH_DATA_DIR: data, WORK_DIR: work } });
    expect(lastLines(run.stderr, 1)[0]).toMatch(/^holdwatch: run \S+: 1 holder\(s\), 1 leaked past their test, .*; journal \S+\.jsonl$/);
    expect(run.stderr).not.toMatch(/still held/);
  });
});

/** Another program (a real process, not of the run) holding `count` files open in `dir` until killed. */
async function holdFilesElsewhere(dir: string, count: number): Promise<ChildProcess> {
  const script = `import os, sys, time
d = sys.argv[1]
held = [open(os.path.join(d, "other-%03d.dat" % i), "w") for i in range(int(sys.argv[2]))]
print("ready", flush=True)
time.sleep(600)
`;
  const child = spawn(SYSTEM_PYTHON, ['-c', script, dir, String(count)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`the holder exited early (${code})`)));
  });
  return child;
}

describe('holdwatch run in a temp dir shared with 500 files another program holds', () => {
  let other: ChildProcess | undefined;
  afterEach(() => {
    other?.kill('SIGKILL');
  });

  it("the Markdown report's first screen shows only the run's holders; the others are counted and folded", async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    other = await holdFilesElsewhere(shared, 500);
    const run = await runCli(['run', '--watch', shared, '--report', 'shared.md', '--', ...pytest], {
      cwd: dir,
      env: { HOLDWATCH_DATA_DIR: data, WORK_DIR: shared },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^holdwatch: run \S+: 1 holder\(s\), 50\d held by processes outside the run, 1 leaked past their test,/m);
    const report = readFileSync(join(dir, 'shared.md'), 'utf8');
    const firstScreen = report.split('\n').slice(0, 40).join('\n');
    expect(firstScreen).toMatch(/^\| `app\.log` \| `python3?` \d+ \| `suite\/test_store\.py::test_append_log` \| \*\*leaked-past-test\*\* \|$/m);
    expect(firstScreen).not.toMatch(/other-\d{3}\.dat/);
    expect(firstScreen).toMatch(/Not listed here: 50\d paths held by \d+ process(es)? outside this run/);
    expect(report).toMatch(/<strong>Outside this run \(50\d paths, \d+ process(es)?\)/);
  });
});

// The GitHub Action's run step (scripts/action-run.mjs) as a runner runs it: the env action.yml maps its
// inputs to, a step summary and an outputs file, and a real command leaving a real file held.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { action, leakingCommand, readOutputs, stepEnv } from '../support/action.js';
import { REPO_ROOT } from '../support/cli.js';

const runStep = action.runs.steps.find((step) => step.id === 'run')!;

let scratch: string;
let runnerTemp: string;
let leftoverPids: number[] = [];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-action-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The command's background sleep outlives the step, as a leak does: end it whatever the test saw.
afterEach(() => {
  for (const pid of leftoverPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone (kill-leftovers ended it)
    }
  }
  leftoverPids = [];
});

async function runAction(inputs: Record<string, string>) {
  runnerTemp = mkdtempSync(join(scratch, 'runner-temp-'));
  const github = mkdtempSync(join(scratch, 'github-'));
  const summaryPath = join(github, 'step-summary.md');
  const outputPath = join(github, 'output');
  writeFileSync(summaryPath, '');
  writeFileSync(outputPath, '');
  const osTemp = mkdtempSync(join(github, 'tmp-'));
  const env = {
    ...process.env,
    ...stepEnv(runStep, inputs),
    RUNNER_TEMP: runnerTemp,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_ACTION_PATH: REPO_ROOT,
    GITHUB_JOB: 'test',
    // The OS temp dir, watched by default with RUNNER_TEMP: this test's, so it is cleaned up with it.
    TMPDIR: osTemp,
    HOLDWATCH_DATA_DIR: join(github, 'data'),
  };
  // action.yml's step runs `node "$GITHUB_ACTION_PATH/scripts/action-run.mjs"`.
  expect(runStep.run).toBe('node "$GITHUB_ACTION_PATH/scripts/action-run.mjs"');
  const child = spawn(process.execPath, [join(REPO_ROOT, 'scripts/action-run.mjs')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const outputs = readOutputs(outputPath);
  return { code, stdout, stderr, summary: readFileSync(summaryPath, 'utf8'), outputs, github, osTemp };
}

const pidIn = (pidFile: string) => {
  const pid = Number(readFileSync(pidFile, 'utf8'));
  leftoverPids.push(pid);
  return pid;
};

// Ended means gone or a zombie: the exited holdwatch was its subreaper, and this machine's PID 1 may not reap.
function isRunning(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  return existsSync(stat) && !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

describe('the action run step', () => {
  it('gets every input of the action', () => {
    const mapped = Object.values(runStep.env ?? {}).map((text) => /^\$\{\{ inputs\.([\w-]+) \}\}$/.exec(text)?.[1]);
    expect(mapped.sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it.each([0, 3])('keeps the command exit code %i and names the holder in the step summary and the reports', async (exitCode) => {
    const { command, pidFile } = leakingCommand(scratch, `exit-${exitCode}`, exitCode);
    const out = await runAction({ run: command });
    const pid = pidIn(pidFile);
    expect(out.code, out.stderr).toBe(exitCode);
    expect(out.stdout).toMatch(/^(# pass 1|ℹ pass 1)\n[^]*ok\n$/m); // Node's own report: TAP up to Node 22 on a pipe, spec from 23
    expect(out.outputs['exit-code']).toBe(String(exitCode));
    // Watched by default: the runner's temp dir (the held file is there).
    expect(out.summary).toContain('### holdwatch:');
    expect(out.summary).toMatch(/^### holdwatch: .*`node` PID \d+ still held `held\.log`, opened in `\S*\.test\.mjs > leaves a writer`/);
    expect(out.summary).toMatch(/^\| `held\.log` \| `node[^`]*` \d+ \| [^|]+ \| \*\*leaked-past-test\*\* \|/m);
    // Where the upload step looks: beside RUNNER_TEMP, outside both watched temp dirs, both reports there.
    const reportDir = out.outputs['report-dir']!;
    expect(dirname(reportDir)).toBe(dirname(runnerTemp));
    expect(reportDir.startsWith(out.osTemp)).toBe(false);
    expect(out.outputs['artifact-name']).toMatch(/^holdwatch-report-test-[0-9a-f]{6}$/);
    expect(readFileSync(join(reportDir, 'holdwatch-report.md'), 'utf8')).toContain(`held.log`);
    expect(readFileSync(join(reportDir, 'holdwatch-report.html'), 'utf8')).toContain(`held.log`);
    // Nothing asked holdwatch to end it: the leak is still there for the report to be true.
    expect(isRunning(pid)).toBe(true);
  });

  it('watches the OS temp dir by default too: a file held in TMPDIR (not RUNNER_TEMP) is named', async () => {
    const { command, pidFile } = leakingCommand(scratch, 'os-temp', 0, 'TMPDIR');
    const out = await runAction({ run: command });
    pidIn(pidFile);
    expect(out.code, out.stderr).toBe(0);
    expect(out.summary).toMatch(/^### holdwatch: .*`node` PID \d+ still held `held\.log`, opened in `\S*\.test\.mjs > leaves a writer`/);
  });

  it('ends the leftover with kill-leftovers', async () => {
    const { command, pidFile } = leakingCommand(scratch, 'kill', 0);
    const out = await runAction({ run: command, 'kill-leftovers': 'true' });
    const pid = pidIn(pidFile);
    expect(out.code, out.stderr).toBe(0);
    expect(isRunning(pid)).toBe(false);
  });

  it('runs the command with the shell input, and takes report-dir and report-name', async () => {
    const reportDir = mkdtempSync(join(scratch, 'reports-'));
    const out = await runAction({ run: 'echo "$0"', shell: 'sh', 'report-dir': reportDir, 'report-name': 'mine' });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe('sh\n');
    expect(out.outputs).toMatchObject({ 'report-dir': reportDir, 'artifact-name': 'mine', 'exit-code': '0' });
    expect(existsSync(join(reportDir, 'holdwatch-report.md'))).toBe(true);
  });

  it.each([
    [{ run: '' }, /^holdwatch action: the 'run' input is empty/],
    [{ run: 'true', shell: 'fish' }, /^holdwatch action: the 'shell' input "fish" is not one of bash, sh, pwsh, cmd$/],
  ])('refuses %j with one line and exit 2', async (inputs, message) => {
    const out = await runAction(inputs);
    expect(out.code).toBe(2);
    expect(out.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(message)]);
    expect(out.summary).toBe('');
  });

  it('passes holdwatch’s own refusal on: a watched dir that does not exist is exit 2, the command never runs', async () => {
    const marker = join(scratch, 'ran');
    const out = await runAction({ run: `touch '${marker}'`, watch: join(scratch, 'no-such-dir') });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/no such directory/);
    expect(existsSync(marker)).toBe(false);
  });
});

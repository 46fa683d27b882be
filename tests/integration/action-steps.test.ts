// The GitHub Action end to end on Linux, step by step as a runner runs it: a fresh copy of the repo
// (no dist/, as the action's checkout comes), each `run:` step of action.yml in bash with its
// working-directory and env, then a leaking node:test suite whose held file is in the OS temp dir.
// `npm ci` is the one step not run: the network is not here, so the copy gets this checkout's
// node_modules (installed from the same lockfile) instead.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action, expandExpressions, leakingCommand, readOutputs, stepEnv, type ActionStep } from '../support/action.js';
import { REPO_ROOT } from '../support/cli.js';

let scratch: string;
let checkout: string;
const leftoverPids: number[] = [];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-action-steps-'));
  checkout = join(scratch, 'holdwatch-action');
  // The files a checkout of this commit holds (and this working tree's edits), nothing built.
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO_ROOT, file)));
  for (const file of files) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    cpSync(join(REPO_ROOT, file), join(checkout, file));
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(checkout, 'node_modules'));
});

afterAll(() => {
  for (const pid of leftoverPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(scratch, { recursive: true, force: true });
});

interface StepResult {
  step: ActionStep;
  status: number | null;
  stderr: string;
}

/** Every step of action.yml in order, as the runner would; `uses:` steps are returned unrun. */
function runSteps(inputs: Record<string, string>, env: Record<string, string>): StepResult[] {
  const results: StepResult[] = [];
  for (const step of action.runs.steps) {
    if (step.uses || !step.run) {
      results.push({ step, status: null, stderr: '' });
      continue;
    }
    // node_modules is there already: the rest of the step (a build chained after it) still runs.
    const script = step.run.replace(/^npm ci\b[^&\n]*(?:&&\s*)?/, '');
    if (script.trim() === '') {
      results.push({ step, status: 0, stderr: '' });
      continue;
    }
    expect(step.shell).toBe('bash');
    const cwd = step['working-directory'] ? expandExpressions(step['working-directory'], inputs, checkout) : env.GITHUB_WORKSPACE!;
    // `shell: bash` is `bash --noprofile --norc -eo pipefail {0}` on a runner.
    const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env: { ...process.env, ...env, ...stepEnv(step, inputs, checkout) },
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 600_000,
    });
    results.push({ step, status: ran.status, stderr: ran.stderr });
    if (ran.status !== 0) break;
  }
  return results;
}

describe('the action, its steps run from a fresh checkout on Linux', () => {
  it('builds the CLI it runs, watches the OS temp dir by default, and names the test that left a file held there', () => {
    const github = mkdtempSync(join(scratch, 'github-'));
    const osTemp = mkdtempSync(join(scratch, 'tmp-'));
    const runnerTemp = mkdtempSync(join(scratch, 'runner-temp-'));
    const workspace = mkdtempSync(join(scratch, 'workspace-'));
    const summary = join(github, 'step-summary.md');
    const output = join(github, 'output');
    writeFileSync(summary, '');
    writeFileSync(output, '');
    const { command, pidFile } = leakingCommand(scratch, 'steps', 0, 'TMPDIR');
    const env = {
      GITHUB_ACTION_PATH: checkout,
      GITHUB_WORKSPACE: workspace,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      GITHUB_JOB: 'test',
      RUNNER_TEMP: runnerTemp,
      TMPDIR: osTemp,
      HOLDWATCH_DATA_DIR: join(github, 'data'),
    };

    const results = runSteps({ run: command }, env);
    if (existsSync(pidFile)) leftoverPids.push(Number(readFileSync(pidFile, 'utf8')));

    const failed = results.find((r) => r.status !== 0 && r.status !== null);
    expect(failed, failed && `${failed.step.name}: exit ${failed.status}\n${failed.stderr}`).toBeUndefined();
    expect(existsSync(join(checkout, 'dist/cli-bundle/main.mjs'))).toBe(true);
    const outputs = readOutputs(output);
    expect(outputs['exit-code']).toBe('0');
    expect(readFileSync(summary, 'utf8')).toMatch(/^### holdwatch: .*`node` PID \d+ still held `held\.log`, opened in `\S*\.test\.mjs > leaves a writer`/);
    // The upload step: its path is the run step's report-dir, which holds both reports.
    const upload = results.find((r) => r.step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.step.with?.path).toBe('${{ steps.run.outputs.report-dir }}');
    expect(readFileSync(join(outputs['report-dir']!, 'holdwatch-report.md'), 'utf8')).toContain('held.log');
  }, 900_000);
});

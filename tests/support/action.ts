// The GitHub Action (action.yml) as a runner sees it: its metadata, its inputs' expressions expanded,
// and a leaking node:test suite for it to run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from './cli.js';

export interface ActionStep {
  id?: string;
  name?: string;
  run?: string;
  uses?: string;
  shell?: string;
  'working-directory'?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
export interface ActionMetadata {
  inputs: Record<string, { default?: string }>;
  runs: { steps: ActionStep[] };
}

export const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as ActionMetadata;

/** `${{ inputs.x }}` with the input or its default, and `${{ github.action_path }}`, as the runner expands them. */
export function expandExpressions(text: string, inputs: Record<string, string>, actionPath = REPO_ROOT): string {
  const value = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? '';
  return text.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, name: string) => value(name)).replace(/\$\{\{\s*github\.action_path\s*\}\}/g, actionPath);
}

/** A step's env as the runner builds it. */
export function stepEnv(step: ActionStep, inputs: Record<string, string>, actionPath = REPO_ROOT): Record<string, string> {
  return Object.fromEntries(Object.entries(step.env ?? {}).map(([key, text]) => [key, expandExpressions(text, inputs, actionPath)]));
}

/**
 * A node:test suite whose one test opens `held.log` in the dir named by `dirVariable` and never closes
 * it (its process holds it past the test's end), and leaves a detached `sleep` holding it too (its pid
 * written to `<scratch>/<name>.pid`, outside the watched dirs); then the command exits with `exitCode`.
 */
export function leakingCommand(scratch: string, name: string, exitCode: number, dirVariable = 'RUNNER_TEMP'): { command: string; pidFile: string } {
  const pidFile = join(scratch, `${name}.pid`);
  const testFile = join(scratch, `${name}.test.mjs`);
  writeFileSync(
    testFile,
    `import { spawn } from 'node:child_process';
import { openSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
test('leaves a writer', async () => {
  const log = openSync(process.env.${dirVariable} + '/held.log', 'w');
  const child = spawn('sleep', ['30'], { stdio: ['ignore', log, 'ignore'], detached: true });
  child.unref();
  writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));
  await new Promise((resolve) => setTimeout(resolve, 300));
});
`,
  );
  return { command: `node --test '${testFile}'; echo ok; exit ${exitCode}`, pidFile };
}

/** The `name=value` lines a step appended to GITHUB_OUTPUT. */
export function readOutputs(path: string): Record<string, string> {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

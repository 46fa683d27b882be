// The runner table read as a run reads it: which runner a command is, what its command becomes, what
// every run's environment gains, and which Node processes the preload's trackers claim.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BATS_FORMATTER_FILE } from './bats.js';
import { NODE_TRACKERS_VARIABLE, prepareForRunners } from './prepare.js';
import type { NodeTracker, RunnerContext } from './runner.js';
import { RUNNERS } from './table.js';

const scratch = mkdtempSync(join(tmpdir(), 'holdwatch-runner-table-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const PROBES = join(import.meta.dirname, '../../../probes/');

function context(command: string[], more: Partial<RunnerContext> = {}): RunnerContext {
  // HOLDWATCH_STRACE empty: the Go exit stop without a syscall ledger.
  const base = { PATH: process.env.PATH, HOLDWATCH_STRACE: '', ...more.base };
  return { command, base, cwd: scratch, cacheDir: scratch, probesDir: PROBES, platform: 'linux', nodeMajor: 24, userSeesTerminal: false, ...more };
}
const prepared = (command: string[], more: Partial<RunnerContext> = {}) => prepareForRunners(context(command, more));
const runnerOf = async (command: string[]) => (await prepared(command)).runner.name;

describe('which runner a command is', () => {
  it('is read from the program, behind env and behind a launcher', async () => {
    const cases: [string[], string][] = [
      [['pytest', '-x'], 'pytest'],
      [['python3', '-m', 'pytest', 'tests'], 'pytest'],
      [['/usr/bin/python3.12', '-X', 'dev', '-m', 'pytest'], 'pytest'],
      [['python3', '-m', 'unittest', 'discover'], 'unittest'],
      [['go', 'test', './...'], 'go test'],
      [['env', 'EXAMPLE_DIR=/tmp/x', 'bats', 'tests'], 'bats'],
      [['node', '--test'], 'node:test'],
      [['mocha', '--reporter', 'tap'], 'mocha'],
      [['node', 'node_modules/.bin/_mocha'], 'mocha'],
      [['npx', 'jest'], 'jest'],
      [['node_modules\\.bin\\jest.cmd'], 'jest'],
      [['npx', 'vitest', 'run'], 'vitest'],
      [['npm', 'test'], 'plain lines'],
      [['env', '-S', 'bats t'], 'plain lines'],
      [['env', 'A=1'], 'plain lines'],
      [['./pkg.test', '-test.v'], 'plain lines'], // not there: the user's mistake, left to "command not found"
    ];
    for (const [command, runner] of cases) expect([command, await runnerOf(command)]).toEqual([command, runner]);
  });

  it('names a Go test binary that is there, and runs it through the exit stop GOFLAGS names', async () => {
    writeFileSync(join(scratch, 'pkg.test'), '');
    const run = await prepared(['./pkg.test', '-test.v']);
    expect([run.runner.name, run.env.GOFLAGS, run.command]).toEqual([
      'Go test binary',
      `-exec=${PROBES}go/holdwatch-go-exec`,
      [`${PROBES}go/holdwatch-go-exec`, './pkg.test', '-test.v'],
    ]);
  });
});

describe('what a command becomes', () => {
  it('bats gets the formatter after env, and keeps one the user chose', async () => {
    expect((await prepared(['/usr/bin/env', '-u', 'CI', '-i', 'A=1', '--', 'bats', 't'])).command).toEqual([
      '/usr/bin/env',
      '-u',
      'CI',
      '-i',
      'A=1',
      '--',
      'bats',
      '--formatter',
      PROBES + BATS_FORMATTER_FILE,
      't',
    ]);
    expect((await prepared(['bats', '-F', 'pretty', 't'])).command).toEqual(['bats', '-F', 'pretty', 't']);
  });

  it('node --test gets the reporter Node would have used: tap on a pipe and spec on a terminal up to Node 22, spec from 23', async () => {
    const usual = async (userSeesTerminal: boolean, nodeMajor: number) => (await prepared(['node', '--test'], { userSeesTerminal, nodeMajor })).command[1];
    expect([await usual(false, 20), await usual(true, 20), await usual(false, 22)]).toEqual([
      '--test-reporter=tap',
      '--test-reporter=spec',
      '--test-reporter=tap',
    ]);
    expect([await usual(false, 24), await usual(true, 24)]).toEqual(['--test-reporter=spec', '--test-reporter=spec']);
    expect((await prepared(['node', '--test-reporter=dot', '--test'])).command).toEqual(['node', '--test-reporter=dot', '--test']);
  });

  it('mocha, jest, vitest and pytest are left as they are: their probes load from the environment', async () => {
    for (const command of [['mocha', '--reporter', 'tap'], ['npx', 'jest'], ['npx', 'vitest'], ['pytest']]) {
      const run = await prepared(command);
      expect([run.command, run.runner.tests.by]).toEqual([command, 'probe']);
    }
    expect((await prepared(['npm', 'test'])).runner.tests.by).toBe('output');
  });
});

describe("every run's environment", () => {
  it('carries the Python runner probes and the pytest plugin, the user’s own kept', async () => {
    const { env } = await prepared(['make', 'test'], { base: { PYTHONPATH: '/mine', PYTEST_ADDOPTS: '-q' } });
    expect([env.PYTHONPATH, env.PYTEST_ADDOPTS]).toEqual([[PROBES + 'python-runners', '/mine'].join(delimiter), '-q -p holdwatch_pytest']);
    const again = await prepared(['pytest'], { base: { PYTEST_ADDOPTS: '-p holdwatch_pytest' } });
    expect(again.env.PYTEST_ADDOPTS).toBeUndefined();
  });

  it('names the Node trackers, and each claims the main scripts of its runner and no other', async () => {
    const { env } = await prepared(['npm', 'test']);
    const trackers = JSON.parse(env[NODE_TRACKERS_VARIABLE]!) as NodeTracker[];
    const claims = (main: string) =>
      trackers.filter((t): t is Extract<NodeTracker, { main: string }> => 'main' in t && new RegExp(t.main).test(main)).map((t) => t.tracker);
    expect(claims('/p/node_modules/mocha/bin/mocha.js')).toEqual(['mocha']);
    expect(claims('/p/node_modules/mocha/lib/nodejs/worker.js')).toEqual(['mocha']);
    expect(claims('/p/node_modules/.bin/_mocha')).toEqual(['mocha']);
    expect(claims('/p/node_modules/jest-worker/build/workers/processChild.js')).toEqual(['jest']);
    expect(claims('/p/node_modules/.bin/jest')).toEqual(['jest']);
    expect(claims('/p/node_modules/vitest/dist/workers/forks.js')).toEqual(['vitest']);
    expect(claims('/p/node_modules/vitest/vitest.mjs')).toEqual([]); // vitest's main process runs no test
    expect(claims('/p/src/jester.js')).toEqual([]);
    expect(trackers.find((t) => t.tracker === 'node-test')).toEqual({ tracker: 'node-test', variable: 'NODE_TEST_CONTEXT', runnerFlag: '--test' });
  });
});

describe('the table', () => {
  it('has one entry per runner, the plain line reader last and taking any command', () => {
    const names = RUNNERS.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    expect(RUNNERS.at(-1)!.recognise?.({ prefix: [], program: 'x', name: 'x', args: [] }, context(['x']))).toBe(true);
  });
});

// The probes added by hand (no HOLDWATCH_EVENTS): they announce to <data dir>/inbox only when a running
// holdwatch created it, each file headed by the runner process; without the inbox they write nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';

let scratch: string;
let suites: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-announce-'));
  suites = join(scratch, 'suites');
  mkdirSync(suites);
  writeFileSync(join(suites, 'test_one.py'), 'def test_one():\n    pass\n');
  writeFileSync(join(suites, 'one.bats'), '@test "one" {\n  true\n}\n');
  writeFileSync(join(suites, 'one.test.mjs'), "import test from 'node:test';\ntest('one', () => {});\n");
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The environment of a run holdwatch did not start: no events file named. */
const withoutEvents = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'HOLDWATCH_EVENTS'));

const runners: Record<string, { command: string; args: string[]; env?: Record<string, string>; runner: string; test: string }> = {
  pytest: {
    command: SYSTEM_PYTHON,
    args: ['-m', 'pytest', '-p', 'holdwatch_pytest', '-p', 'no:cacheprovider', '-q', 'test_one.py'],
    env: { PYTHONPATH: join(REPO_ROOT, 'probes/python-runners'), PYTHONDONTWRITEBYTECODE: '1' },
    runner: 'pytest',
    test: 'test_one.py::test_one',
  },
  bats: { command: 'bats', args: ['--formatter', join(REPO_ROOT, 'probes/bats/holdwatch-bats-formatter.mjs'), 'one.bats'], runner: 'bats', test: 'one' },
  node: {
    command: process.execPath,
    args: ['--test', `--test-reporter=${join(REPO_ROOT, 'probes/node-reporter/holdwatch-reporter.mjs')}`, '--test-reporter-destination=stdout', 'one.test.mjs'],
    runner: 'node --test',
    test: 'one.test.mjs > one',
  },
};

function runWith(name: string, data: string) {
  const r = runners[name]!;
  const result = spawnSync(r.command, r.args, {
    cwd: suites,
    encoding: 'utf8',
    env: { ...withoutEvents, ...r.env, HOLDWATCH_DATA_DIR: data },
    timeout: 60_000,
  });
  if (result.error) throw result.error;
  return result;
}

describe.each(Object.keys(runners))('%s probe added by hand', (name) => {
  it('announces to the inbox: a header naming the runner process, then its events', () => {
    const data = join(scratch, `${name}-listening`);
    mkdirSync(join(data, 'inbox'), { recursive: true });
    const result = runWith(name, data);
    expect(result.status).toBe(0);
    const files = readdirSync(join(data, 'inbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d+-[0-9a-f]+\.jsonl$/);
    const [header, ...events] = readFileSync(join(data, 'inbox', files[0]!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // The process holdwatch should follow: the one we started (bats' formatter names bats, its parent).
    expect(header).toMatchObject({ type: 'announce', pid: result.pid, cwd: suites, runner: runners[name]!.runner, atMs: expect.any(Number) });
    expect((header!.argv as string[]).join(' ')).toContain(runners[name]!.args.at(-1));
    expect(events.map((e) => `${e.type} ${e.name}`)).toContain(`test-end ${runners[name]!.test}`);
  });

  it('writes nothing when no holdwatch listens (no inbox)', () => {
    const data = join(scratch, `${name}-alone`);
    mkdirSync(data);
    expect(runWith(name, data).status).toBe(0);
    expect(readdirSync(data)).toEqual([]);
  });
});

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, shape } from '../fixtures/runners/feed.js';
import { runWithProbe } from './probe-run.js';

const PYTHON = '/usr/bin/python3'; // Debian's, which has python3-pytest (the pyenv python3 does not)
const PROBE_DIR = join(import.meta.dirname, '../../probes/python-runners');

function pytest(extraEnv: NodeJS.ProcessEnv = {}, eventsPath?: (dir: string) => string) {
  // No cache dir, no bytecode: nothing written into the repo's fixture folder.
  return runWithProbe(PYTHON, ['-m', 'pytest', '-p', 'holdwatch_pytest', '-p', 'no:cacheprovider', '-q'], {
    cwd: fixture('pytest'),
    env: { PYTHONPATH: PROBE_DIR, PYTHONDONTWRITEBYTECODE: '1', ...extraEnv },
    ...(eventsPath ? { eventsPath } : {}),
  });
}

describe('holdwatch_pytest plugin under a real pytest', () => {
  const run = pytest();

  it('writes the timeline with setup/call/teardown phases, a teardown failure as a teardown error', () => {
    expect(run.status).toBe(1);
    expect(run.rejectedLines).toBe(0);
    const t = (name: string) => `test_example.py::${name}`;
    const phases = (name: string, setup: string, call: string | null, teardown: string) => [
      `test-start ${t(name)}`,
      `phase ${t(name)} setup`,
      `phase ${t(name)} setup ${setup}`,
      ...(call ? [`phase ${t(name)} call`, `phase ${t(name)} call ${call}`] : []),
      `phase ${t(name)} teardown`,
      `phase ${t(name)} teardown ${teardown}`,
    ];
    expect(shape(run.events)).toEqual([
      'run-start pytest',
      ...phases('test_passes', 'passed', 'passed', 'passed'),
      `test-end ${t('test_passes')} passed`,
      ...phases('test_fails_in_body', 'passed', 'failed', 'passed'),
      `test-end ${t('test_fails_in_body')} failed`,
      ...phases('test_fails_in_teardown', 'passed', 'passed', 'error'),
      `test-end ${t('test_fails_in_teardown')} error`,
      ...phases('test_skipped', 'skipped', null, 'passed'),
      `test-end ${t('test_skipped')} skipped`,
      'run-end pytest failed',
    ]);
  });

  it("folds a test's phases that did not fail into its end line, a failing one and those before it on their own", () => {
    // run-start, run-end; a passing or skipped test: start, end; failing in its body: start, setup start,
    // setup passed, call start, call failed, end; failing in teardown: five before its line, start, end.
    expect(run.lines).toBe(2 + 2 + 6 + 8 + 2);
  });

  it("carries the teardown's exception as the detail, with times in order", () => {
    const teardown = run.events.find((e) => e.type === 'phase' && e.phase === 'teardown' && e.outcome === 'error')!;
    expect(teardown.detail).toMatch(/^OSError: \[Errno 39\] Directory not empty: '.*scratch'$/);
    const times = run.events.map((e) => e.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('changes nothing when HOLDWATCH_EVENTS is unset', () => {
    const plain = pytest({}, () => '');
    expect(plain.status).toBe(1);
    expect(plain.events).toEqual([]);
    expect(plain.output).toContain('1 failed, 2 passed, 1 skipped, 1 error');
  });

  it('never breaks the run when the events file cannot be written', () => {
    const broken = pytest({}, (dir) => join(dir, 'no-such-dir', 'events.jsonl'));
    expect(broken.status).toBe(1);
    expect(broken.output).toContain('1 failed, 2 passed, 1 skipped, 1 error');
    expect(broken.output).not.toContain('holdwatch');
  });
});

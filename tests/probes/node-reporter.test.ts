import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, shape } from '../fixtures/runners/feed.js';
import { runWithProbe } from './probe-run.js';

const REPORTER = join(import.meta.dirname, '../../probes/node-reporter/holdwatch-reporter.mjs');

function nodeTest(eventsPath?: (dir: string) => string) {
  // As documented: the reporter people read on stdout, ours next to it (it prints nothing).
  const args = [
    '--test',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${REPORTER}`,
    '--test-reporter-destination=stdout',
    fixture('node', 'example.test.mjs'),
  ];
  return runWithProbe(process.execPath, args, { cwd: fixture('node'), ...(eventsPath ? { eventsPath } : {}) });
}

describe('holdwatch-reporter under node --test', () => {
  const run = nodeTest();

  it('writes the timeline live, a failing after-hook as an error with its message', () => {
    expect(run.status).toBe(1);
    expect(run.rejectedLines).toBe(0);
    expect(shape(run.events)).toEqual([
      'run-start node --test',
      'test-start passes',
      'test-end passes passed',
      'test-start fails in body',
      'test-end fails in body failed',
      'test-start fails in teardown',
      'test-end fails in teardown error',
      'test-start is skipped',
      'test-end is skipped skipped',
      'test-start group',
      'test-start group > inner passes',
      'test-end group > inner passes passed',
      'test-end group passed',
      'run-end node --test failed',
    ]);
    expect(run.events.find((e) => e.name === 'fails in teardown' && e.type === 'test-end')!.detail).toBe(
      "EBUSY: resource busy or locked, rmdir '/tmp/holdwatch-fixture'",
    );
    const times = run.events.map((e) => e.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("leaves the spec reporter's output as it was", () => {
    expect(run.output).toMatch(/✔ passes/);
    expect(run.output).toMatch(/✖ fails in body/);
  });

  it('never breaks the run when the events file cannot be written', () => {
    const broken = nodeTest((dir) => join(dir, 'no-such-dir', 'events.jsonl'));
    expect(broken.status).toBe(1);
    expect(broken.events).toEqual([]);
    expect(broken.output).toMatch(/✔ passes/);
  });
});

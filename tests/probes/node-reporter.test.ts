import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
      'test-start example.test.mjs > passes',
      'test-end example.test.mjs > passes passed',
      'test-start example.test.mjs > fails in body',
      'test-end example.test.mjs > fails in body failed',
      'test-start example.test.mjs > fails in teardown',
      'test-end example.test.mjs > fails in teardown error',
      'test-start example.test.mjs > is skipped',
      'test-end example.test.mjs > is skipped skipped',
      'test-start example.test.mjs > group',
      'test-start example.test.mjs > group > inner passes',
      'test-end example.test.mjs > group > inner passes passed',
      'test-end example.test.mjs > group passed',
      'run-end node --test failed',
    ]);
    expect(run.events.find((e) => e.name === 'example.test.mjs > fails in teardown' && e.type === 'test-end')!.detail).toBe(
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

  it('a file that declares no test is one test, named by its path from the working directory; a file with tests names them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hw-plain-'));
    try {
      writeFileSync(join(dir, 'a-plain.test.cjs'), "require('node:fs').readFileSync(__filename);\n");
      writeFileSync(join(dir, 'b-failing.test.cjs'), 'process.exitCode = 1;\n');
      writeFileSync(join(dir, 'c-with-tests.test.cjs'), "require('node:test').test('only', () => {});\n");
      const args = ['--test', `--test-reporter=${REPORTER}`, '--test-reporter-destination=stdout', '--test-concurrency=1'];
      const files = ['a-plain.test.cjs', 'b-failing.test.cjs', 'c-with-tests.test.cjs'];
      const plain = runWithProbe(process.execPath, [...args, ...files], { cwd: dir });
      expect(plain.status).toBe(1);
      expect(shape(plain.events)).toEqual([
        'run-start node --test',
        'test-start a-plain.test.cjs',
        'test-end a-plain.test.cjs passed',
        'test-start b-failing.test.cjs',
        'test-end b-failing.test.cjs failed',
        'test-start c-with-tests.test.cjs > only',
        'test-end c-with-tests.test.cjs > only passed',
        'run-end node --test failed',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

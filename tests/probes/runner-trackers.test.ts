// The Node preload following mocha's and jest's tests inside the processes that run them: real
// runners from npm, real files, the probe's records and the timeline events read back.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toTestEvent } from '../../core/runners/events.js';
import { findProbeLeaks, indexProbeRecords, parseProbeLog, type ProbeRecord } from '../../core/stacks/index.js';
import { REPO_ROOT } from '../support/cli.js';
import { lineOf, makeScratch, runToEnd, topUserFrame } from './stack-support.js';

const scratch = makeScratch();
afterAll(() => scratch.dispose());

const BIN = join(REPO_ROOT, 'node_modules/.bin');

// One suite in both runners' shape (describe/it, hooks): a leak after an await, a closed open, a leak
// in a beforeEach, and a failing test that leaks.
const suite = (dirVar: string, it: string) => `const fs = require('fs');
const kept = [];
const dir = process.env.${dirVar};
describe('store', () => {
  afterEach(() => {});
  ${it}('leaks after an await', async () => {
    await new Promise((r) => setTimeout(r, 2));
    kept.push(fs.openSync(dir + '/async.txt', 'w')); // the async leak
  });
  ${it}('closes what it opens', () => fs.closeSync(fs.openSync(dir + '/closed.txt', 'w')));
  describe('nested', () => {
    beforeEach(() => kept.push(fs.openSync(dir + '/hook.txt', 'a'))); // the hook leak
    ${it}('uses what its hook opened', () => {});
  });
  ${it}('fails holding a file', () => {
    kept.push(fs.openSync(dir + '/failed.txt', 'w')); // the failing leak
    throw new Error('boom');
  });
});
`;

/** The timeline of one run of the suite, its tests in the order given, each passing but the failing one. */
function timelineOf(order: string[]): [string, string, string | undefined][] {
  return order.flatMap((name): [string, string, string | undefined][] => [
    ['test-start', name, undefined],
    ['test-end', name, name.includes('fails') ? 'failed' : 'passed'],
  ]);
}

const ASYNC = 'store > leaks after an await';
const CLOSED = 'store > closes what it opens';
const HOOK = 'store > nested > uses what its hook opened';
const FAILING = 'store > fails holding a file';

interface Tracked {
  records: ProbeRecord[];
  timeline: [string, string, string | undefined][];
  leaks: [string, string | undefined, number | undefined][];
}

function runTracked(name: string, command: string, args: string[], cwd: string): Tracked {
  const watched = join(scratch.watched, name);
  mkdirSync(watched);
  const events = join(scratch.root, `${name}.events.jsonl`);
  writeFileSync(events, '');
  const logDir = join(scratch.root, `${name}.probes`);
  mkdirSync(logDir);
  const run = runToEnd(command, args, scratch.probedEnv({ LEAK_DIR: watched, HOLDWATCH_EVENTS: events }, logDir), cwd);
  expect(run.status).toBe(1); // one test fails
  const { records } = makeScratchRecords(logDir);
  const timeline = readFileSync(events, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => toTestEvent(JSON.parse(l))!)
    .map((e): [string, string, string | undefined] => [e.type, e.name, e.outcome]);
  const leaks = findProbeLeaks(indexProbeRecords(records), { watchedDirOf: (p) => (p.startsWith(watched) ? watched : null), seen: () => false }).map(
    (l): [string, string | undefined, number | undefined] => [
      l.open.path.slice(watched.length + 1),
      l.stack.test ?? undefined,
      topUserFrame(l.stack.frames)?.line,
    ],
  );
  return { records, timeline, leaks };
}

function makeScratchRecords(logDir: string): { records: ProbeRecord[] } {
  const records: ProbeRecord[] = [];
  for (const name of readdirSync(logDir)) {
    const parsed = parseProbeLog(readFileSync(join(logDir, name), 'utf8'));
    expect(parsed.rejectedLines).toBe(0);
    records.push(...parsed.records);
  }
  return { records };
}

/** a.test.js and b.test.js (the suite, b's files prefixed `b-`) each with its own tests, in order, and its own three leaks. */
function expectEachFileOwnTests(source: string, timeline: Tracked['timeline'], leaks: Tracked['leaks']): void {
  for (const file of ['a.test.js', 'b.test.js']) {
    const own = timeline.filter(([, name]) => name.startsWith(`${file} > `));
    expect(own.map(([type, name, outcome]) => [type, name.slice(file.length + 3), outcome])).toEqual(timelineOf([ASYNC, CLOSED, HOOK, FAILING]));
  }
  const expected = (file: string, prefix: string) => [
    [`${prefix}async.txt`, `${file} > ${ASYNC}`, lineOf(source, 'the async leak')],
    [`${prefix}hook.txt`, `${file} > ${HOOK}`, lineOf(source, 'the hook leak')],
    [`${prefix}failed.txt`, `${file} > ${FAILING}`, lineOf(source, 'the failing leak')],
  ];
  expect(leaks.sort()).toEqual([...expected('a.test.js', ''), ...expected('b.test.js', 'b-')].sort());
}

describe('runner trackers in the Node preload', () => {
  it('mocha (12, ESM): each test from its beforeEach to its afterEach, the timeline written, each leak with its test and line', () => {
    const dir = join(scratch.root, 'mocha-suite');
    mkdirSync(dir);
    const source = suite('LEAK_DIR', 'it');
    writeFileSync(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
    writeFileSync(join(dir, 'store.spec.js'), source);
    const { timeline, leaks } = runTracked('mocha', join(BIN, 'mocha'), ['store.spec.js'], dir);
    // mocha runs a suite's own tests before its nested suites'.
    expect(timeline).toEqual(timelineOf([ASYNC, CLOSED, FAILING, HOOK]));
    expect(leaks).toEqual([
      ['async.txt', ASYNC, lineOf(source, 'the async leak')],
      ['failed.txt', FAILING, lineOf(source, 'the failing leak')],
      ['hook.txt', HOOK, lineOf(source, 'the hook leak')],
    ]);
  });

  it('jest (30, two workers): names carry the test file, lines are the source lines behind babel-jest', () => {
    const dir = join(scratch.root, 'jest-suite');
    mkdirSync(dir);
    const source = suite('LEAK_DIR', 'test');
    writeFileSync(join(dir, 'package.json'), '{ "name": "jest-suite", "private": true }\n');
    // Two files, so that jest runs them in its worker processes.
    writeFileSync(join(dir, 'a.test.js'), source);
    writeFileSync(join(dir, 'b.test.js'), source.replaceAll("'/", "'/b-"));
    const { records, timeline, leaks } = runTracked('jest', join(BIN, 'jest'), ['--rootDir', dir, '--maxWorkers=2', '--no-cache'], dir);
    const workers = new Set(records.filter((r) => r.kind === 'test').map((r) => r.pid));
    expect(workers.size).toBe(2);
    expectEachFileOwnTests(source, timeline, leaks);
  });

  it('vitest (4, forks): the preload follows the test running in each worker, lines are the source lines behind the transform by vite', () => {
    const dir = join(scratch.root, 'vitest-suite');
    mkdirSync(dir);
    const source = suite('LEAK_DIR', 'test');
    writeFileSync(join(dir, 'package.json'), '{ "name": "vitest-suite", "private": true, "type": "commonjs" }\n');
    writeFileSync(join(dir, 'store.test.js'), source);
    const { timeline, leaks } = runTracked('vitest', join(BIN, 'vitest'), ['run', '--globals', '--root', dir], dir);
    const file = 'store.test.js > ';
    expect(timeline).toEqual(timelineOf([ASYNC, CLOSED, HOOK, FAILING].map((n) => file + n)));
    expect(leaks).toEqual([
      ['async.txt', file + ASYNC, lineOf(source, 'the async leak')],
      ['hook.txt', file + HOOK, lineOf(source, 'the hook leak')],
      ['failed.txt', file + FAILING, lineOf(source, 'the failing leak')],
    ]);
  });

  it("vitest (4, threads): two files in two worker threads of one process, each thread's tests and leaks its own", () => {
    const dir = join(scratch.root, 'vitest-threads-suite');
    mkdirSync(dir);
    const source = suite('LEAK_DIR', 'test');
    writeFileSync(join(dir, 'package.json'), '{ "name": "vitest-threads-suite", "private": true, "type": "commonjs" }\n');
    writeFileSync(join(dir, 'a.test.js'), source);
    writeFileSync(join(dir, 'b.test.js'), source.replaceAll("'/", "'/b-"));
    const args = ['run', '--globals', '--root', dir, '--pool', 'threads', '--maxWorkers', '2'];
    const { records, timeline, leaks } = runTracked('vitest-threads', join(BIN, 'vitest'), args, dir);
    // The tests ran in the threads of one process: one pid, two logs.
    expect(new Set(records.filter((r) => r.kind === 'test').map((r) => r.pid)).size).toBe(1);
    expectEachFileOwnTests(source, timeline, leaks);
  });
});

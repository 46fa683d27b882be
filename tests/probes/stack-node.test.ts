// The Node stack probe (--require preload) inside real Node processes, matched against a real /proc scan.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import { findProbeLeaks, indexProbeRecords, matchOpenStack, matchSpawnStack, type ProbeRecord } from '../../core/stacks/index.js';
import { expectOnlyOneLineMore, killAll, lineOf, makeScratch, runToEnd, scanHolders, startHolding, topUserFrame, type Scratch } from './stack-support.js';

const scratch = makeScratch();
const extraPids: number[] = [];
afterAll(() => {
  killAll(extraPids);
  scratch.dispose();
});

const STREAM_LEAK = `const fs = require('node:fs');
function openLog(file) {
  return fs.createWriteStream(file, { flags: 'a' }); // the leaking stream
}
for (let i = 0; i < 50; i++) fs.closeSync(fs.openSync(process.argv[3], 'w')); // opened and closed: never recorded
const stream = openLog(process.argv[2]);
stream.on('open', () => setImmediate(() => process.stdout.write('ready\\n')));
process.stdin.resume();
`;

const ESM_LEAK = `import { openSync } from 'node:fs';
export const fd = openSync(process.argv[2], 'a'); // the leaking openSync
process.stdout.write('ready\\n');
process.stdin.resume();
`;

const BLOCKED_LEAK = `const fs = require('node:fs');
// Opened and closed: never recorded. As many as a file-heavy loop: the leak's stack is a short one.
for (let i = 0; i < 500; i++) fs.closeSync(fs.openSync(process.argv[3], 'r'));
const fd = fs.openSync(process.argv[2], 'w'); // the leaked fd
process.stdout.write('ready\\n');
if (process.argv[4] === 'spin') for (;;) fs.closeSync(fs.openSync(process.argv[3], 'r')); // the event loop never turns again
setInterval(() => {}, 60_000); // idle for good: nothing but the probe's own timer runs
`;

const LAUNCHER = `const { spawn } = require('node:child_process');
const hold = "require('node:fs').openSync(process.argv[1], 'w'); setInterval(() => {}, 60000);";
const child = spawn(process.execPath, ['-e', hold, process.argv[2]], { detached: true, stdio: 'ignore' }); // the spawn
child.unref();
process.stdout.write(child.pid + '\\n', () => process.kill(process.pid, 'SIGKILL')); // no 'exit' handlers run
`;

// Two leaks twelve calls deep: one the process's first open, one past a file-heavy loop.
const DEEP_LEAKS = `const fs = require('node:fs');
const [first, hot, churn] = process.argv.slice(2);
const kept = [];
function openHere(file) {
  kept.push(fs.openSync(file, 'w')); // the deep leak
}
function nest(depth, file) {
  return depth === 0 ? openHere(file) : nest(depth - 1, file); // the nesting
}
nest(12, first);
for (let i = 0; i < 500; i++) fs.closeSync(fs.openSync(churn, 'r'));
nest(12, hot);
`;

// A node:test file: hooks, a describe, a nested subtest, an async test, a leak unlinked by a hook.
const NODE_TESTS = `const fs = require('node:fs');
const { describe, it, test, afterEach } = require('node:test');
const dir = process.argv[2] ?? process.env.LEAK_DIR;
const kept = [];
describe('suite', () => {
  afterEach(() => fs.rmSync(dir + '/unlinked.txt', { force: true }));
  it('leaks after an await', async () => {
    await new Promise((r) => setTimeout(r, 2));
    kept.push(fs.openSync(dir + '/async.txt', 'w')); // the async leak
  });
  it('closes what it opens', () => fs.closeSync(fs.openSync(dir + '/closed.txt', 'w')));
  it('leaks a file its hook unlinks', () => {
    kept.push(fs.openSync(dir + '/unlinked.txt', 'w')); // the unlinked leak
  });
});
test('outer', async (t) => {
  await t.test('inner', () => {
    kept.push(fs.openSync(dir + '/inner.txt', 'w')); // the inner leak
  });
});
`;

/** The probe writes its records ~50 ms late; the holder is seen first, so read until its open is there (bounded). */
async function recordsWithOpen(s: Scratch, pid: number): Promise<ProbeRecord[]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const { records, rejectedLines } = s.records();
    expect(rejectedLines).toBe(0);
    if (records.some((r) => r.pid === pid && r.kind === 'open')) return records;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no open record from pid ${pid}`);
}

async function holderOf(pid: number, path: string): Promise<Holder> {
  const holder = (await scanHolders(scratch.watched)).find((h) => h.pid === pid && h.path === path);
  expect(holder).toBeDefined();
  return holder!;
}

describe('node stack probe', () => {
  it("a leaked createWriteStream's open stack points at its line, matched by fd; closed fds are never written", async () => {
    const script = scratch.write('stream-leak.cjs', STREAM_LEAK);
    const target = join(scratch.watched, 'stream.log');
    const churn = join(scratch.root, 'churn.txt');
    const { child } = await startHolding(process.execPath, [script, target, churn], scratch.probedEnv(), scratch.root);
    const holder = await holderOf(child.pid!, target);
    const records = await recordsWithOpen(scratch, child.pid!);
    expect(records.filter((r) => r.kind === 'open' && r.path === churn)).toEqual([]);
    const lookup = matchOpenStack({ ...holder, firstSeenAtMs: Date.now() }, indexProbeRecords(records));
    expect(lookup.found).toBe(true);
    if (!lookup.found) return;
    expect(lookup).toMatchObject({ matchedBy: 'fd', stack: { runtime: 'node', api: 'fs.createWriteStream', path: target } });
    expect(holder.handle).toBe(`fd ${lookup.stack.fd}`);
    expect(topUserFrame(lookup.stack.frames)).toMatchObject({ file: script, line: lineOf(STREAM_LEAK, 'the leaking stream'), function: 'openLog' });
  });

  for (const how of ['idle', 'spin'] as const) {
    it(`records an fd leaked just before the process blocks (${how === 'idle' ? 'on a timer' : 'in a synchronous loop'}), with the time it was opened; fds closed meanwhile are not recorded`, async () => {
      const script = scratch.write(`blocked-leak-${how}.cjs`, BLOCKED_LEAK);
      const target = join(scratch.watched, `blocked-${how}.txt`);
      const churn = join(scratch.root, `churn-${how}.txt`);
      scratch.write(`churn-${how}.txt`, 'x');
      const { child } = await startHolding(process.execPath, [script, target, churn, how], scratch.probedEnv(), scratch.root);
      const readyAtMs = Date.now();
      try {
        const holder = await holderOf(child.pid!, target);
        const records = await recordsWithOpen(scratch, child.pid!);
        expect(records.filter((r) => r.kind === 'open' && r.path === churn)).toEqual([]);
        const open = records.find((r) => r.kind === 'open' && r.pid === child.pid && r.path === target);
        // Written later, stamped when opened: before the child said it was ready.
        expect(open!.atMs).toBeLessThanOrEqual(readyAtMs);
        const lookup = matchOpenStack({ ...holder, firstSeenAtMs: Date.now() }, indexProbeRecords(records));
        expect(lookup).toMatchObject({ found: true, matchedBy: 'fd', stack: { api: 'fs.openSync', path: target } });
        expect(lookup.found && topUserFrame(lookup.stack.frames)).toMatchObject({ file: script, line: lineOf(BLOCKED_LEAK, 'the leaked fd') });
      } finally {
        child.kill('SIGKILL');
      }
    });
  }

  it("a detached child's spawn stack points at the spawn line, though its launcher was SIGKILLed right after", async () => {
    const script = scratch.write('launcher.cjs', LAUNCHER);
    const target = join(scratch.watched, 'detached.txt');
    const run = runToEnd(process.execPath, [script, target], scratch.probedEnv(), scratch.root);
    expect(run.signal).toBe('SIGKILL');
    const childPid = Number(run.stdout.trim());
    extraPids.push(childPid);
    let holder: Holder | undefined;
    for (let attempt = 0; attempt < 50 && !holder; attempt++) {
      holder = (await scanHolders(scratch.watched)).find((h) => h.pid === childPid && h.path === target);
      if (!holder) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(holder).toBeDefined();
    const spawn = matchSpawnStack(
      { pid: holder!.pid, ppid: holder!.ppid, startedAtMs: holder!.processStartedAtMs },
      indexProbeRecords(scratch.records().records),
    );
    expect(spawn).toMatchObject({ found: true, matchedBy: 'child-pid', stack: { runtime: 'node', api: 'child_process.spawn', childPid } });
    expect(spawn.found && topUserFrame(spawn.stack.frames)).toMatchObject({ file: script, line: lineOf(LAUNCHER, 'the spawn') });
  });

  it('sees named ESM imports of node:fs too', async () => {
    const script = scratch.write('esm-leak.mjs', ESM_LEAK);
    const target = join(scratch.watched, 'esm.txt');
    const { child } = await startHolding(process.execPath, [script, target], scratch.probedEnv(), scratch.root);
    const holder = await holderOf(child.pid!, target);
    const lookup = matchOpenStack({ ...holder, firstSeenAtMs: Date.now() }, await recordsWithOpen(scratch, child.pid!));
    expect(lookup.found && topUserFrame(lookup.stack.frames)).toMatchObject({ file: script, line: lineOf(ESM_LEAK, 'the leaking openSync') });
  });

  it('keeps 10 frames of an open, and 2 (the line and its caller) past 100 opens between two writes', () => {
    const script = scratch.write('deep-leaks.cjs', DEEP_LEAKS);
    const [first, hot] = ['deep-first.txt', 'deep-hot.txt'].map((name) => join(scratch.watched, name));
    const churn = scratch.write('deep-churn.txt', 'x');
    const run = runToEnd(process.execPath, [script, first!, hot!, churn], scratch.probedEnv(), scratch.root);
    expect(run.status).toBe(0);
    const { records } = scratch.records();
    const pid = records.find((r) => r.kind === 'process' && r.argv.includes(script))!.pid;
    const framesOf = (path: string) => {
      const open = records.find((r) => r.pid === pid && r.kind === 'open' && r.path === path);
      return open?.kind === 'open' ? open.frames.map((f) => [f.file, f.function, f.line]) : undefined;
    };
    const leak = [script, 'openHere', lineOf(DEEP_LEAKS, 'the deep leak')];
    const nesting = [script, 'nest', lineOf(DEEP_LEAKS, 'the nesting')];
    expect(framesOf(first!)).toEqual([leak, ...Array.from({ length: 9 }, () => nesting)]);
    expect(framesOf(hot!)).toEqual([leak, nesting]);
  });

  it("under node --test, each open carries its test, and each test's end the opens still open and unlinked", () => {
    const file = scratch.write('tracked.test.cjs', NODE_TESTS);
    const run = runToEnd(process.execPath, ['--test', '--test-reporter=tap', file], scratch.probedEnv({ LEAK_DIR: scratch.watched }), scratch.root);
    expect(run.status).toBe(0);
    const { records, rejectedLines } = scratch.records();
    expect(rejectedLines).toBe(0);
    const testFilePid = records.find((r) => r.kind === 'process' && r.argv.includes(file) && !r.argv.includes('--test'))!.pid;
    const mine = records.filter((r) => r.pid === testFilePid).sort((a, b) => a.atMs - b.atMs);
    const opens = new Map(mine.flatMap((r) => (r.kind === 'open' && r.path.startsWith(scratch.watched) ? [[r.id!, r]] : [])));
    const name = (id: number) => opens.get(id)!.path.slice(scratch.watched.length + 1);
    // The reporter's names, in execution order; each end with what its own opens left open. A describe
    // block is a scope, not a test: only its end is written, after its after hooks (a test with
    // subtests stays a test).
    expect(
      mine.flatMap((r) => (r.kind === 'test' ? [[r.event, r.scope ?? 'test', r.name, (r.open ?? []).map(name), (r.unlinked ?? []).map(name)]] : [])),
    ).toEqual([
      ['start', 'test', 'tracked.test.cjs > suite > leaks after an await', [], []],
      ['end', 'test', 'tracked.test.cjs > suite > leaks after an await', ['async.txt'], []],
      ['start', 'test', 'tracked.test.cjs > suite > closes what it opens', [], []],
      ['end', 'test', 'tracked.test.cjs > suite > closes what it opens', [], []],
      ['start', 'test', 'tracked.test.cjs > suite > leaks a file its hook unlinks', [], []],
      ['end', 'test', 'tracked.test.cjs > suite > leaks a file its hook unlinks', ['unlinked.txt'], ['unlinked.txt']],
      ['end', 'suite', 'tracked.test.cjs > suite', [], []],
      ['start', 'test', 'tracked.test.cjs > outer', [], []],
      ['start', 'test', 'tracked.test.cjs > outer > inner', [], []],
      ['end', 'test', 'tracked.test.cjs > outer > inner', ['inner.txt'], []],
      ['end', 'test', 'tracked.test.cjs > outer', [], []],
    ]);
    // closed.txt was closed before a flush: never written.
    expect([...opens.values()].map((r) => [name(r.id!), r.test])).toEqual([
      ['async.txt', 'tracked.test.cjs > suite > leaks after an await'],
      ['unlinked.txt', 'tracked.test.cjs > suite > leaks a file its hook unlinks'],
      ['inner.txt', 'tracked.test.cjs > outer > inner'],
    ]);
    const exit = mine.find((r) => r.kind === 'exit');
    expect(exit?.kind === 'exit' && exit.open.map(name).sort()).toEqual(['async.txt', 'inner.txt', 'unlinked.txt']);
    // The line of each leak, as the lookup of a leak no scan saw gives it.
    const leaks = findProbeLeaks(indexProbeRecords(records), {
      watchedDirOf: (p) => (p.startsWith(scratch.watched) ? scratch.watched : null),
      seen: () => false,
    });
    expect(leaks.map((l) => [name(l.open.id!), topUserFrame(l.stack.frames)?.line, l.stack.unlinkedWhileOpen ?? false])).toEqual([
      ['async.txt', lineOf(NODE_TESTS, 'the async leak'), false],
      ['unlinked.txt', lineOf(NODE_TESTS, 'the unlinked leak'), true],
      ['inner.txt', lineOf(NODE_TESTS, 'the inner leak'), false],
    ]);
    // The probe's own frames (the tracker wrapping node:test) are never in a stack.
    expect(leaks.flatMap((l) => l.stack.frames).filter((f) => f.file.includes('probes/node'))).toEqual([]);
  });

  it('a file with no tests of its own is the test: its opens carry it, its end comes at exit, and the cleanup that deletes them is named', () => {
    const source = `const fs = require('node:fs');
const path = require('node:path');
const dir = path.join(process.env.LEAK_DIR, 'plain');
fs.mkdirSync(dir);
const kept = fs.openSync(path.join(dir, 'kept.txt'), 'w'); // the plain leak
fs.closeSync(fs.openSync(path.join(dir, 'closed.txt'), 'w'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true })); // the exit cleanup
`;
    const file = scratch.write('plain.test.cjs', source);
    const run = runToEnd(process.execPath, ['--test', '--test-reporter=tap', file], scratch.probedEnv({ LEAK_DIR: scratch.watched }), scratch.root);
    expect(run.status).toBe(0);
    const { records } = scratch.records();
    const pid = records.find((r) => r.kind === 'process' && r.argv.includes(file) && !r.argv.includes('--test'))!.pid;
    const mine = records.filter((r) => r.pid === pid);
    const kept = mine.find((r) => r.kind === 'open' && r.path.endsWith('kept.txt'));
    expect(kept).toMatchObject({ test: 'plain.test.cjs' });
    expect(mine.filter((r) => r.kind === 'test').map((r) => r.kind === 'test' && [r.event, r.name, r.open ?? []])).toEqual([
      ['start', 'plain.test.cjs', []],
      ['end', 'plain.test.cjs', [kept!.kind === 'open' && kept!.id]],
    ]);
    const leaks = findProbeLeaks(indexProbeRecords(records), {
      watchedDirOf: (p) => (p.startsWith(scratch.watched) ? scratch.watched : null),
      seen: () => false,
    });
    const leak = leaks.find((l) => l.open.path.endsWith('kept.txt'));
    expect(leak?.stack).toMatchObject({ test: 'plain.test.cjs', heldPastTest: true, unlinkedWhileOpen: true, deletedBy: { api: 'fs.rmSync' } });
    expect(topUserFrame(leak!.stack.frames)?.line).toBe(lineOf(source, 'the plain leak'));
    expect(topUserFrame(leak!.stack.deletedBy!.frames)?.line).toBe(lineOf(source, 'the exit cleanup'));
    // A delete that finds nothing of this process open under it is not recorded.
    expect(mine.filter((r) => r.kind === 'delete')).toHaveLength(1);
  });

  it("keeps the user's NODE_OPTIONS working", () => {
    const userPreload = scratch.write('user-preload.cjs', 'globalThis.userPreload = "ran";\n');
    const script = scratch.write('options.cjs', 'console.log(globalThis.userPreload, process.execArgv.length, typeof require("node:fs").openSync);\n');
    const env = scratch.probedEnv({ NODE_OPTIONS: `--require ${userPreload} --max-old-space-size=200` });
    expect(env.NODE_OPTIONS!.startsWith(`--require ${userPreload} --max-old-space-size=200 `)).toBe(true);
    const run = runToEnd(process.execPath, [script], env, scratch.root);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('ran 0 function');
    expect(scratch.records().records.some((r) => r.kind === 'process' && r.argv.includes(script))).toBe(true);
  });

  it('a probe that cannot write its log changes nothing but one line on stderr, for the whole process tree', () => {
    const script = scratch.write(
      'noisy.cjs',
      `const { execFileSync } = require('node:child_process');
console.log('out');
console.error('err');
process.stdout.write(execFileSync(process.execPath, ['-e', 'console.log("child out")']));
process.exitCode = 3;
`,
    );
    const plain = runToEnd(process.execPath, [script], process.env, scratch.root);
    const probed = runToEnd(process.execPath, [script], scratch.probedEnv({}, join(scratch.root, 'no-such-dir')), scratch.root);
    expectOnlyOneLineMore(plain, probed, 3, /^holdwatch: node stack probe disabled: cannot write .*no-such-dir/);
  });
});

// The Python stack probe inside real Python processes, matched against a real /proc scan.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexProbeRecords, matchOpenStack, matchSpawnStack, NOT_PROBED } from '../../core/stacks/index.js';
import { expectOnlyOneLineMore, killAll, lineOf, makeScratch, PYTHON, runToEnd, scanHolders, startHolding, topUserFrame } from './stack-support.js';

const scratch = makeScratch();
const extraPids: number[] = [];
afterAll(() => {
  killAll(extraPids);
  scratch.dispose();
});

const LEAK = `import sys
def open_fixture(path):
    return open(path, "a")  # the leaking open
held = open_fixture(sys.argv[1])
print("ready", flush=True)
sys.stdin.read()
`;

const LAUNCHER = `import subprocess, sys
child = subprocess.Popen(["sh", "-c", 'exec 3>>"$1"; echo held; exec sleep 600', "sh", sys.argv[1]], start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # the Popen
child.stdout.readline()
print(child.pid, flush=True)
`;

// Opens the same file from one line 50 times, then from another line, then from the first again,
// and keeps that last one open: the repeats are one record, and the latest open still wins.
const REPEATS = `import sys
path = sys.argv[1]
def poll():
    for _ in range(50):
        open(path).close()  # the polling open
poll()
open(path).close()  # the other open
held = open(path)  # the kept open
import contextlib
@contextlib.contextmanager
def resource():
    yield open(path)  # the open inside a context manager
with resource() as also_held:  # the with line
    print("ready", flush=True)
    sys.stdin.read()
`;

// CPython closes a file the moment its last reference goes: a probe that kept the opening frame
// ("keep the frame, format later") would keep the function's locals, and the file, open after it
// returns, making the very sharing violation holdwatch exists to explain.
const NO_CLOSE = `import os, sys
path = sys.argv[1]
def held():
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            count += os.readlink("/proc/self/fd/" + fd) == path
        except OSError:
            pass
    return count
def writes_without_close():
    f = open(path, "w")
    f.write("x")
writes_without_close()
print(held())
`;

describe('python stack probe', () => {
  it("a leaked file's open stack has the open(...) line as its top user frame", async () => {
    const script = scratch.write('leak.py', LEAK);
    const target = join(scratch.watched, 'leaked.txt');
    const { child } = await startHolding(PYTHON, [script, target], scratch.probedEnv(), scratch.root);
    const holder = (await scanHolders(scratch.watched)).find((h) => h.pid === child.pid && h.path === target);
    expect(holder).toBeDefined();
    const { records, rejectedLines } = scratch.records();
    expect(rejectedLines).toBe(0);
    const lookup = matchOpenStack({ ...holder!, firstSeenAtMs: Date.now() }, indexProbeRecords(records));
    expect(lookup.found).toBe(true);
    if (!lookup.found) return;
    expect(lookup).toMatchObject({ matchedBy: 'path', viaPid: null, stack: { runtime: 'python', api: 'open', path: target, pid: child.pid } });
    expect(topUserFrame(lookup.stack.frames)).toMatchObject({ file: script, line: lineOf(LEAK, 'the leaking open'), function: 'open_fixture' });
    expect(lookup.stack.frames[1]).toMatchObject({ file: script, line: lineOf(LEAK, 'held = open_fixture'), user: true });
  });

  it('a detached child started by Popen: its spawn stack points at the Popen line, its open stack says why there is none', async () => {
    const script = scratch.write('launcher.py', LAUNCHER);
    const target = join(scratch.watched, 'detached.txt');
    // The launcher exits: the holder outlives it, reparented, the case users meet.
    const run = runToEnd(PYTHON, [script, target], scratch.probedEnv(), scratch.root);
    expect(run.status).toBe(0);
    const childPid = Number(run.stdout.trim());
    extraPids.push(childPid);
    const holder = (await scanHolders(scratch.watched)).find((h) => h.pid === childPid && h.path === target);
    expect(holder).toBeDefined();
    const index = indexProbeRecords(scratch.records().records);
    const spawn = matchSpawnStack({ pid: holder!.pid, ppid: holder!.ppid, startedAtMs: holder!.processStartedAtMs }, index);
    expect(spawn.found).toBe(true);
    if (!spawn.found) return;
    expect(spawn).toMatchObject({ matchedBy: 'child-pid', stack: { kind: 'spawn', api: 'subprocess.Popen', childPid } });
    expect(spawn.stack.argv?.slice(0, 2)).toEqual(['sh', '-c']);
    expect(topUserFrame(spawn.stack.frames)).toMatchObject({ file: script, line: lineOf(LAUNCHER, 'the Popen') });
    // sh and sleep are not Python: no open stack, and the reason says so.
    expect(matchOpenStack({ ...holder!, firstSeenAtMs: Date.now() }, index)).toEqual({ found: false, reason: NOT_PROBED });
  });

  it('records a repeated open from the same line once, and each of two handles on one file gets its own open', async () => {
    const script = scratch.write('repeats.py', REPEATS);
    const target = join(scratch.watched, 'repeated.txt');
    writeFileSync(target, 'x');
    const { child } = await startHolding(PYTHON, [script, target], scratch.probedEnv(), scratch.root);
    const { records } = scratch.records();
    const opens = records.filter((r) => r.kind === 'open' && r.pid === child.pid && r.path === target);
    const lines = opens.map((r) => (r.kind === 'open' ? topUserFrame(r.frames)?.line : undefined));
    expect(lines).toEqual(['the polling open', 'the other open', 'the kept open', 'the open inside'].map((n) => lineOf(REPEATS, n)));
    // The context manager's frame, contextlib's __enter__ between, then the `with` line: a library
    // frame between the user's frames is kept, and the walk goes on past it.
    const inside = opens.at(-1)!;
    expect(inside.kind === 'open' && inside.frames.map((f) => [f.function, f.user])).toEqual([
      ['resource', true],
      ['_GeneratorContextManager.__enter__', false],
      ['<module>', true],
    ]);
    expect(inside.kind === 'open' && inside.frames[2]!.line).toBe(lineOf(REPEATS, 'the with line'));
    // Two handles on the file (the kept open, the one inside the context manager): by fd, each its own line.
    const holders = (await scanHolders(scratch.watched)).filter((h) => h.pid === child.pid && h.path === target);
    expect(holders).toHaveLength(2);
    const index = indexProbeRecords(records);
    const linesOf = holders.map((h) => {
      const lookup = matchOpenStack({ ...h, firstSeenAtMs: Date.now() }, index);
      return lookup.found && lookup.matchedBy === 'fd' ? topUserFrame(lookup.stack.frames)?.line : undefined;
    });
    expect(linesOf.sort()).toEqual([lineOf(REPEATS, 'the kept open'), lineOf(REPEATS, 'the open inside')].sort());
  });

  it('records from four threads opening 2,000 files each never interleave, across the log growing', () => {
    // The log is written without a lock (one mmap.write per record): 8,000 records of ~200 bytes
    // outgrow its first 256 KiB several times while the threads race.
    const script = scratch.write(
      'threads.py',
      `import os, sys, threading
root = sys.argv[1]
def opens(n):
    for i in range(2000):
        open(os.path.join(root, "t%d-%d" % (n, i)), "w").close()
threads = [threading.Thread(target=opens, args=(n,)) for n in range(4)]
for t in threads: t.start()
for t in threads: t.join()
`,
    );
    const dir = join(scratch.watched, 'threads');
    mkdirSync(dir);
    const run = runToEnd(PYTHON, [script, dir], scratch.probedEnv(), scratch.root);
    expect(run.stderr).toBe('');
    const { records, rejectedLines } = scratch.records();
    expect(rejectedLines).toBe(0);
    const paths = new Set(records.flatMap((r) => (r.kind === 'open' && r.path.startsWith(dir) ? [r.path] : [])));
    expect(paths.size).toBe(8000);
  });

  it("a unittest test's stack ends at unittest's call of it, walking on past a mock.patch wrapper", () => {
    scratch.write(
      'test_unit_open.py',
      `import os, unittest
from unittest import mock
kept = []
class OpensTest(unittest.TestCase):
    @mock.patch.dict(os.environ, {"HW": "1"})
    def test_open(self):
        kept.append(open(os.environ["TARGET"], "w"))  # the unittest open
`,
    );
    const target = join(scratch.watched, 'unittest.txt');
    const run = runToEnd(PYTHON, ['-m', 'unittest', '-q', 'test_unit_open'], scratch.probedEnv({ TARGET: target }), scratch.root);
    expect(run.status, run.stderr).toBe(0);
    const open = scratch.records().records.find((r) => r.kind === 'open' && r.path === target);
    expect(open?.kind === 'open' && open.frames.map((f) => [f.function, f.user])).toEqual([
      ['OpensTest.test_open', true],
      ['_patch_dict.decorate_callable.<locals>._inner', false],
      ['TestCase._callTestMethod', false],
    ]);
  });

  it('two modules whose opens sit on the same line at the same offset each get their own file in the stack', () => {
    // The call-site cache is keyed by line and offset first: a hit must still be the same module.
    const twin = 'def touch(path):\n    open(path, "a").close()  # the twin open\n';
    scratch.write('twin_a.py', twin);
    scratch.write('twin_b.py', twin);
    const script = scratch.write(
      'twins.py',
      `import sys
sys.path.insert(0, ${JSON.stringify(scratch.root)})
import twin_a, twin_b
for name in ("a1", "b1", "a2", "b2"):
    (twin_a if name[0] == "a" else twin_b).touch(sys.argv[1] + "/" + name)
`,
    );
    const dir = join(scratch.watched, 'twins');
    mkdirSync(dir);
    expect(runToEnd(PYTHON, [script, dir], scratch.probedEnv(), scratch.root).stderr).toBe('');
    const files = Object.fromEntries(
      scratch.records().records.flatMap((r) => (r.kind === 'open' && r.path.startsWith(dir) ? [[r.path.slice(dir.length + 1), r.frames[0]?.file]] : [])),
    );
    expect(files).toEqual({
      a1: join(scratch.root, 'twin_a.py'),
      b1: join(scratch.root, 'twin_b.py'),
      a2: join(scratch.root, 'twin_a.py'),
      b2: join(scratch.root, 'twin_b.py'),
    });
  });

  it("never keeps a test's file open after the function that opened it returns", () => {
    const script = scratch.write('no-close.py', NO_CLOSE);
    const target = join(scratch.watched, 'closed-by-refcount.txt');
    const run = runToEnd(PYTHON, [script, target], scratch.probedEnv(), scratch.root);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('0');
    expect(scratch.records().records.some((r) => r.kind === 'open' && r.path === target)).toBe(true);
  });

  it("keeps the user's sitecustomize and PYTHONPATH working", () => {
    const userDir = join(scratch.root, 'user-path');
    mkdirSync(userDir);
    scratch.write('user-path/sitecustomize.py', 'import os\nos.environ["USER_SITECUSTOMIZE"] = "ran"\n');
    scratch.write('user-path/usermod.py', 'VALUE = 42\n');
    const script = scratch.write(
      'site.py',
      'import os, sitecustomize, usermod\nprint(os.environ.get("USER_SITECUSTOMIZE"), usermod.VALUE, sitecustomize.__file__)\n',
    );
    const env = scratch.probedEnv({ PYTHONPATH: userDir });
    expect(env.PYTHONPATH!.endsWith(userDir)).toBe(true);
    const run = runToEnd(PYTHON, [script], env, scratch.root);
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(`ran 42 ${join(userDir, 'sitecustomize.py')}`);
    expect(scratch.records().records.some((r) => r.kind === 'process' && r.argv.includes(script))).toBe(true);
  });

  it('a probe that cannot write its log changes nothing but one line on stderr, for the whole process tree', () => {
    const script = scratch.write(
      'noisy.py',
      `import subprocess, sys
print("out", flush=True)
sys.stderr.write("err\\n")
subprocess.run([sys.executable, "-c", "print('child out')"], check=True)
sys.exit(3)
`,
    );
    const plain = runToEnd(PYTHON, [script], { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, scratch.root);
    const probed = runToEnd(PYTHON, [script], scratch.probedEnv({}, join(scratch.root, 'no-such-dir')), scratch.root);
    expectOnlyOneLineMore(plain, probed, 3, /^holdwatch: python stack probe disabled: cannot write .*no-such-dir/);
  });
});

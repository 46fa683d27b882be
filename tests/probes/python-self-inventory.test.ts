// The Python probes' self-inventory at a test's end, in a real Python process with the stack probe's
// audit hook on: after a listing that found nothing under the watched dir, a boundary at which neither
// the descriptor count nor the hook's count of events that may open one moved skips the listing; any
// open (Python's, os.open, ctypes calling libc), a chdir into the dir, or a descriptor made where no
// event fires (a pipe) lists again, so nothing the test left open under the dir is hidden. Where the
// only such events were opens, the boundary looks only at the descriptors they took, the ones new since
// the last listing, and 0-2 (a dup2 may redirect them): the process keeps a dozen files open outside the
// dir, so a look at every descriptor and a look at those few read apart.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';

const PROBES = join(import.meta.dirname, '../../probes');
const root = mkdtempSync(join(tmpdir(), 'hw-py-inventory-'));
const watched = join(root, 'watched');
mkdirSync(watched);
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Each step does something, then asks held(): the step's name, how many listings of /proc/self/fd it
// took, and the paths (and kinds) it found under the dir.
const SCRIPT = `
import ctypes, json, os, sys
import holdwatch_channel as channel
watched = sys.argv[1]
inventory = channel.SelfInventory([watched + "/"])
listings = [0]
real_listdir = os.listdir
def counting_listdir(path):
    if path == "/proc/self/fd":
        listings[0] += 1
    return real_listdir(path)
os.listdir = counting_listdir
outside = [open(os.path.join(sys.argv[2], "outside-%d.txt" % i), "w") for i in range(12)]
results = []
def step(name, action=None):
    if action is not None:
        action()
    before = listings[0]
    held = inventory.held()
    looked = "none" if inventory.examined == 0 else "few" if inventory.examined <= 6 else "all"
    results.append([name, listings[0] - before, looked, None if held is None else sorted([h["kind"], h["path"]] for h in held)])
kept = {}
def write_and_remove_inside():
    path = os.path.join(watched, "written.txt")
    with open(path, "w") as f:
        f.write("x")
    os.remove(path)
def open_outside():
    kept["outside"] = open(os.path.join(sys.argv[2], "kept-outside.txt"), "w")
def dup_inside():
    with open(os.path.join(watched, "dup.txt"), "w") as f:
        kept["fd"] = os.dup(f.fileno())
def redirect_stderr_inside():
    kept["stderr"] = os.dup(2)
    with open(os.path.join(watched, "stderr.txt"), "w") as f:
        os.dup2(f.fileno(), 2)
def restore_stderr():
    os.dup2(kept["stderr"], 2)
    os.close(kept.pop("stderr"))
def open_inside():
    kept["file"] = open(os.path.join(watched, "opened.txt"), "w")
def close_inside():
    kept.pop("file").close()
def os_open_inside():
    kept["fd"] = os.open(os.path.join(watched, "os-opened.txt"), os.O_CREAT | os.O_WRONLY)
def close_fd():
    os.close(kept.pop("fd"))
def libc_open_inside():
    libc = ctypes.CDLL(None, use_errno=True)
    kept["fd"] = libc.open(os.path.join(watched, "libc-opened.txt").encode(), os.O_CREAT | os.O_WRONLY, 0o644)
def pipe():
    kept["pipe"] = os.pipe()
def into_dir():
    kept["cwd"] = os.getcwd()
    os.chdir(watched)
def out_of_dir():
    os.chdir(kept.pop("cwd"))
step("first")
step("quiet")
step("opened", open_inside)
step("closed", close_inside)
step("quiet again")
step("os.open", os_open_inside)
step("os.close", close_fd)
step("libc open", libc_open_inside)
step("os.close of it", close_fd)
step("quiet after libc")
step("pipe", pipe)
step("quiet after pipe")
step("chdir in", into_dir)
step("chdir out", out_of_dir)
step("quiet at last")
step("written and removed", write_and_remove_inside)
step("quiet after the write")
step("opened outside", open_outside)
step("dup kept", dup_inside)
step("dup closed", close_fd)
step("stderr redirected", redirect_stderr_inside)
step("stderr restored", restore_stderr)
step("quiet at the end")
print(json.dumps(results))
`;

type Step = [name: string, listings: number, looked: 'none' | 'few' | 'all', held: [string, string][] | null];

function runSteps(withStackProbe: boolean): Step[] {
  const probeLog = join(root, `probes-${String(withStackProbe)}`);
  mkdirSync(probeLog, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONPATH: [join(PROBES, 'python'), join(PROBES, 'python-runners')].join(':') };
  if (withStackProbe) Object.assign(env, { HOLDWATCH_RUN: 'r1', HOLDWATCH_PROBE_LOG: probeLog });
  const r = spawnSync(SYSTEM_PYTHON, ['-c', SCRIPT, watched, root], { env, encoding: 'utf8', cwd: root });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Step[];
}

const inside = (name: string): [string, string][] => [['file', join(watched, name)]];
/** Linux 6.2+ gives the count of open descriptors as /proc/self/fd's size. */
const kernelCountsFds = process.platform === 'linux' && statSync('/proc/self/fd').size > 0;

describe.runIf(kernelCountsFds)('Python self-inventory at a test end', () => {
  it('skips the listing only while nothing that may open a descriptor happened, and never hides one', () => {
    expect(runSteps(true)).toEqual([
      ['first', 1, 'all', []],
      ['quiet', 0, 'none', []],
      ['opened', 1, 'few', inside('opened.txt')],
      ['closed', 1, 'all', []],
      ['quiet again', 0, 'none', []],
      ['os.open', 1, 'few', inside('os-opened.txt')],
      ['os.close', 1, 'all', []],
      // ctypes.CDLL is an audited event that is not an open: every descriptor is looked at.
      ['libc open', 1, 'all', inside('libc-opened.txt')],
      ['os.close of it', 1, 'all', []],
      ['quiet after libc', 0, 'none', []],
      // No event fires for a pipe; the count moved, and its two descriptors are numbers new since.
      ['pipe', 1, 'few', []],
      ['quiet after pipe', 0, 'none', []],
      ['chdir in', 1, 'all', [['cwd', watched]]],
      ['chdir out', 1, 'all', []],
      ['quiet at last', 0, 'none', []],
      // A test's usual file: opened, written, closed and removed (os.remove opens nothing).
      ['written and removed', 1, 'few', []],
      ['quiet after the write', 0, 'none', []],
      ['opened outside', 1, 'few', []],
      // The open's own descriptor is closed; the dup of it, a number not listed before, still holds.
      ['dup kept', 1, 'few', inside('dup.txt')],
      ['dup closed', 1, 'all', []],
      // A dup2 onto a descriptor listed before, its source closed: 0-2 are always looked at.
      ['stderr redirected', 1, 'few', [['file', join(watched, 'stderr.txt')]]],
      ['stderr restored', 1, 'all', []],
      ['quiet at the end', 0, 'none', []],
    ]);
  });

  it('lists at every boundary without the stack probe, whose audit hook says what may have opened one', () => {
    const steps = runSteps(false);
    expect(steps.map(([name, listings, looked]) => [name, listings, looked])).toEqual(steps.map(([name]) => [name, 1, 'all']));
    expect(steps.find(([name]) => name === 'libc open')?.[3]).toEqual(inside('libc-opened.txt'));
    expect(steps.find(([name]) => name === 'stderr redirected')?.[3]).toEqual(inside('stderr.txt'));
  });
});

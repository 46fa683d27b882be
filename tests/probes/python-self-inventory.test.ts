// The Python probes' self-inventory at a test's end, in a real Python process with the stack probe's
// audit hook on: after a listing that found nothing under the watched dir, a boundary at which neither
// the descriptor count nor the hook's count of events that may open one moved skips the listing; any
// open (Python's, os.open, ctypes calling libc), a chdir into the dir, or a descriptor made where no
// event fires (a pipe) lists again, so nothing the test left open under the dir is hidden.
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
results = []
def step(name, action=None):
    if action is not None:
        action()
    before = listings[0]
    held = inventory.held()
    results.append([name, listings[0] - before, None if held is None else sorted([h["kind"], h["path"]] for h in held)])
kept = {}
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
print(json.dumps(results))
`;

function runSteps(withStackProbe: boolean): [string, number, [string, string][] | null][] {
  const probeLog = join(root, `probes-${String(withStackProbe)}`);
  mkdirSync(probeLog, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONPATH: [join(PROBES, 'python'), join(PROBES, 'python-runners')].join(':') };
  if (withStackProbe) Object.assign(env, { HOLDWATCH_RUN: 'r1', HOLDWATCH_PROBE_LOG: probeLog });
  const r = spawnSync(SYSTEM_PYTHON, ['-c', SCRIPT, watched], { env, encoding: 'utf8', cwd: root });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as [string, number, [string, string][] | null][];
}

const inside = (name: string): [string, string][] => [['file', join(watched, name)]];
/** Linux 6.2+ gives the count of open descriptors as /proc/self/fd's size. */
const kernelCountsFds = process.platform === 'linux' && statSync('/proc/self/fd').size > 0;

describe.runIf(kernelCountsFds)('Python self-inventory at a test end', () => {
  it('skips the listing only while nothing that may open a descriptor happened, and never hides one', () => {
    expect(runSteps(true)).toEqual([
      ['first', 1, []],
      ['quiet', 0, []],
      ['opened', 1, inside('opened.txt')],
      ['closed', 1, []],
      ['quiet again', 0, []],
      ['os.open', 1, inside('os-opened.txt')],
      ['os.close', 1, []],
      ['libc open', 1, inside('libc-opened.txt')],
      ['os.close of it', 1, []],
      ['quiet after libc', 0, []],
      ['pipe', 1, []],
      ['quiet after pipe', 0, []],
      ['chdir in', 1, [['cwd', watched]]],
      ['chdir out', 1, []],
      ['quiet at last', 0, []],
    ]);
  });

  it('lists at every boundary without the stack probe, whose audit hook says what may have opened one', () => {
    const steps = runSteps(false);
    expect(steps.map(([name, listings]) => [name, listings])).toEqual(steps.map(([name]) => [name, 1]));
    expect(steps.find(([name]) => name === 'libc open')?.[2]).toEqual(inside('libc-opened.txt'));
  });
});

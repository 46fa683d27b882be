// `holdwatch run` with its data dir on a disk that fills (shared/reviews/reliability.md D4): a small
// tmpfs, mounted for the test (root only), filled before or during the run. The command's output and
// exit code pass through, the journal stops with one line saying where, nothing is left behind, and
// what is on disk still reads as a journal.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const isRoot = process.getuid?.() === 0;
let scratch: string;
let disk: string;
let watched: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-disk-full-'));
  disk = join(scratch, 'disk');
  watched = join(scratch, 'watched');
  mkdirSync(disk);
  mkdirSync(watched);
  if (isRoot) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', disk]);
});

afterAll(() => {
  if (isRoot) execFileSync('umount', [disk]);
  rmSync(scratch, { recursive: true, force: true });
});

/** Leaves `free` bytes on the tmpfs (its data dir `runs/` included). */
function fillLeaving(free: number): void {
  rmSync(join(disk, 'runs'), { recursive: true, force: true });
  rmSync(join(disk, 'fill'), { force: true });
  rmSync(join(disk, 'filled-by-the-test'), { force: true });
  const size = 256 * 1024 - free;
  try {
    writeFileSync(join(disk, 'fill'), Buffer.alloc(size));
  } catch {
    // full already: that is the point
  }
}

const journalOf = (stderr: string) => /journal (\S+\.jsonl) stopped at entry (\d+): ENOSPC/.exec(stderr);

// A python test that fills the data dir's disk itself once the run is under way, then opens 300 files
// under the watched dir and holds them a while (the polls journal them: no room), prints, and exits 5.
const script = (dir: string, disk: string) => `
import os, sys, time
fd = os.open('${disk}/filled-by-the-test', os.O_WRONLY | os.O_CREAT)
try:
    while True:
        os.write(fd, b'x' * 4096)
except OSError:
    os.close(fd)
files = [open('${dir}/f%d' % i, 'w') for i in range(300)]
time.sleep(1.5)
sys.stdout.write('output before\\n' + 'x' * 5000 + '\\n'); sys.stdout.flush()
sys.stderr.write('to stderr\\n')
sys.exit(5)
`;

describe.skipIf(!isRoot)('holdwatch run with a data dir on a disk that fills', () => {
  it('mid-run: exit code and output intact, one line names the entry the journal stopped at, the journal on disk still parses', async () => {
    fillLeaving(128 * 1024);
    const run = await runCli(['run', '--watch', watched, '--', 'python3', '-c', script(watched, disk)], { env: { HOLDWATCH_DATA_DIR: disk } });
    expect(run.code, run.stderr).toBe(5);
    expect(run.stdout).toBe(`output before\n${'x'.repeat(5000)}\n`);
    expect(run.stderr).toContain('to stderr\n');
    const stopped = journalOf(run.stderr);
    expect(stopped, run.stderr).not.toBeNull();
    expect(Number(stopped![2]), 'it stopped in the middle, not at the start').toBeGreaterThan(2);
    expect(run.stderr.match(/stopped at entry/g)).toHaveLength(1); // said once, not at every poll
    expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
    expect(run.stderr).toMatch(/holdwatch: run \S+: \d+ holder\(s\)/); // the record, from memory
    // Every line on disk is whole JSON, and there are exactly the entries before the one that failed.
    const lines = readFileSync(stopped![1]!, 'utf8').split('\n').filter(Boolean);
    expect(lines.map((l) => JSON.parse(l) as { t: string })[0]?.t).toBe('run-start');
    expect(lines).toHaveLength(Number(stopped![2]) - 1);
    expect(readdirSync(join(disk, 'runs')).filter((n) => n.endsWith('.live.json') || n.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('full before the start: the command still runs, with its exit code, and the journal stops at entry 1', async () => {
    fillLeaving(0);
    const run = await runCli(['run', '--watch', watched, '--', 'sh', '-c', 'echo ran; exit 5'], { env: { HOLDWATCH_DATA_DIR: disk } });
    expect(run.code, run.stderr).toBe(5);
    expect(run.stdout).toBe('ran\n');
    expect(journalOf(run.stderr)?.[2]).toBe('1');
    expect(run.stderr).not.toMatch(/\n\s+at |internal error/);
  }, 60_000);

  it('a report the disk has no room for is said, and the exit code is still the command’s', async () => {
    fillLeaving(0);
    const run = await runCli(['run', '--watch', watched, '--json', join(disk, 'r.json'), '--', 'sh', '-c', 'exit 3'], {
      env: { HOLDWATCH_DATA_DIR: join(scratch, 'roomy-data') },
    });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/holdwatch: could not write .*r\.json: ENOSPC; `holdwatch report .*\.jsonl` renders it again/);
  }, 60_000);
});

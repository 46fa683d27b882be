// `holdwatch run` with its data dir on a read-only disk (shared/reviews/reliability-2.md F5): a
// tmpfs mounted read-only for the test (root only). The run used to end with exit 70 before the
// command ran (recursive mkdir says ENOENT for EROFS). Now the command runs, its output and exit
// code pass through, one line says where the run is recorded instead, and that record reads.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const isRoot = process.geteuid?.() === 0;
let scratch: string;
let disk: string;
let watched: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-read-only-'));
  disk = join(scratch, 'disk');
  watched = join(scratch, 'watched');
  mkdirSync(disk);
  mkdirSync(watched);
  if (isRoot) execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,mode=0700,size=64k', 'tmpfs', disk]);
});

afterAll(() => {
  if (isRoot) execFileSync('umount', [disk]);
  rmSync(scratch, { recursive: true, force: true });
});

const FALLBACK = /^holdwatch: the data directory \S+ cannot be written \(EROFS\): this run is recorded in (\S+) instead/m;

describe.skipIf(!isRoot)('holdwatch run with a read-only data dir', () => {
  // The data dir the mount is, and one to be created below it (the review's ENOENT).
  it.each([
    ['is the read-only disk', () => disk],
    ['would be made on the read-only disk', () => join(disk, 'not', 'yet')],
  ])(
    'that %s: the command runs, output and exit code intact, one line says where the run went',
    async (_, dataDir) => {
      const held = join(watched, 'held.txt');
      const script = `f = open(${JSON.stringify(held)}, 'w'); import sys, time; time.sleep(0.5); print('out'); sys.exit(7)`;
      const run = await runCli(['run', '--watch', watched, '--', 'python3', '-c', script], { env: { HOLDWATCH_DATA_DIR: dataDir() } });
      expect(run.code, run.stderr).toBe(7);
      expect(run.stdout).toBe('out\n');
      expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
      const fallback = FALLBACK.exec(run.stderr);
      expect(fallback, run.stderr).not.toBeNull();
      expect(run.stderr.match(/cannot be written/g)).toHaveLength(1);
      // The record is whole where the line says, and private.
      const journal = new RegExp(`journal (${fallback![1]}/\\S+\\.jsonl)`).exec(run.stderr)?.[1];
      expect(journal, run.stderr).toBeDefined();
      const entries = readFileSync(journal!, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { t: string });
      expect(entries[0]?.t).toBe('run-start');
      expect(entries.at(-1)?.t).toBe('run-end');
      const report = await runCli(['report', journal!]);
      expect(report.code, report.stderr).toBe(0);
      expect(report.stdout).toContain('held.txt');
      rmSync(dirname(fallback![1]!), { recursive: true, force: true });
    },
    60_000,
  );
});

// A scan worker thread that ends during a walk without an 'error' event (shared/reviews/reliability.md
// D13): the next walks, on a new worker, find the holder, instead of every later walk waiting behind
// the first forever.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ScanPool as ScanPoolType } from '../../native/linux/scan-pool.js';
import { REPO_ROOT } from '../support/cli.js';

const DIST = join(REPO_ROOT, 'dist', 'native', 'linux');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-dead-worker-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The fixture dies on its first request without joining the walk, so the calling thread walks every
// pid: that walk is whole. (A worker that joined and then died fails its walk: answersOfJoined's unit
// test; which of the two happens in a real walk is up to the scheduler.)
it('a scan worker that dies on its request leaves the walk to the calling thread, and the next walk gets a new worker and finds the holder', async () => {
  process.env.HOLDWATCH_TEST_DYING_WORKER = join(scratch, 'died');
  process.env.HOLDWATCH_TEST_REAL_WORKER = pathToFileURL(join(DIST, 'scan-worker.js')).href;
  const { ScanPool } = (await import(pathToFileURL(join(DIST, 'scan-pool.js')).href)) as { ScanPool: typeof ScanPoolType };
  const pool = new ScanPool(2, { workerUrl: pathToFileURL(join(REPO_ROOT, 'tests', 'faults', 'fixtures', 'dying-scan-worker.mjs')) });
  const holder = spawn('sleep', ['30'], { cwd: scratch, stdio: 'ignore' });
  try {
    const dirs = [{ matchPrefix: realpathSync(scratch), display: scratch }];
    const allPids = () =>
      readdirSync('/proc')
        .filter((e) => /^\d+$/.test(e))
        .map(Number);
    const first = await pool.walk(allPids(), dirs, true);
    expect(first.holdings.filter((h) => h.pid === holder.pid).map((h) => h.kind)).toEqual(['cwd']);
    for (let i = 0; i < 3; i++) {
      const next = await pool.walk(allPids(), dirs, true);
      expect(next.holdings.filter((h) => h.pid === holder.pid).map((h) => h.kind)).toEqual(['cwd']);
    }
  } finally {
    holder.kill('SIGKILL');
    await pool.dispose();
  }
}, 30_000);

// A scan worker thread that ends during a walk without an 'error' event (shared/reviews/reliability.md
// D13): the next walks, on a new worker, find the holder, instead of every later walk waiting behind
// the first forever.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type * as WalkModule from '../../native/linux/fd-walk.js';
import type { WalkResult } from '../../native/linux/fd-walk.js';
import type { ScanPool as ScanPoolType } from '../../native/linux/scan-pool.js';
import { REPO_ROOT } from '../support/cli.js';

const DIST = join(REPO_ROOT, 'dist', 'native', 'linux');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-dead-worker-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The fixture comes up, takes its first request and ends its thread: the calling thread walks that
// walk itself, so it is whole, and the next walks get a new worker.
// Five walks of every process and two thread boots: the timeout only catches a hang, so it leaves room
// for a machine under heavy load.
it('a scan worker that dies on its request leaves the walk to the calling thread, and the next walk gets a new worker and finds the holder', async () => {
  process.env.HOLDWATCH_TEST_DYING_WORKER = join(scratch, 'died');
  process.env.HOLDWATCH_TEST_REAL_WORKER = pathToFileURL(join(DIST, 'scan-worker.js')).href;
  const { ScanPool } = (await import(pathToFileURL(join(DIST, 'scan-pool.js')).href)) as { ScanPool: typeof ScanPoolType };
  const { holdingsOf } = (await import(pathToFileURL(join(DIST, 'fd-walk.js')).href)) as typeof WalkModule;
  const pool = new ScanPool('worker', { workerUrl: pathToFileURL(join(REPO_ROOT, 'tests', 'faults', 'fixtures', 'dying-scan-worker.mjs')) });
  const holder = spawn('sleep', ['30'], { cwd: scratch, stdio: 'ignore' });
  try {
    const dirs = [{ matchPrefix: realpathSync(scratch), display: scratch }];
    const allPids = () =>
      readdirSync('/proc')
        .filter((e) => /^\d+$/.test(e))
        .map(Number);
    const kindsOf = (result: WalkResult) =>
      holdingsOf(result)
        .filter((h) => h.pid === holder.pid)
        .map((h) => h.kind);
    await pool.whenOnline(); // the dying one: the first walk is its request
    expect(kindsOf(await pool.walk(allPids(), dirs, true))).toEqual(['cwd']);
    expect(readFileSync(process.env.HOLDWATCH_TEST_DYING_WORKER, 'utf8')).toBe('died once');
    await pool.whenOnline(); // its replacement, the real worker
    for (let i = 0; i < 3; i++) expect(kindsOf(await pool.walk(allPids(), dirs, true))).toEqual(['cwd']);
  } finally {
    holder.kill('SIGKILL');
    await pool.dispose();
  }
}, 90_000);

// A walk thread ended while koffi loads in it aborted holdwatch (FATAL ERROR ... napi_throw, JS stack
// loadLibc <- scan-worker): koffi throws into a thread that is stopping, and Node ends the whole
// process, exit code and all, after a run's report was written. Here a real Node process starts and
// ends walk threads again and again, each at another moment of its boot, and must exit 0. Without the
// gate (native/linux/koffi-load-gate.ts) most such processes abort; none may.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const POOL = pathToFileURL(join(REPO_ROOT, 'dist', 'native', 'linux', 'scan-pool.js')).href;
const SCRIPT = join(import.meta.dirname, 'fixtures', 'end-booting-scan-workers.mjs');
const ROUNDS = 150;

it.skipIf(process.platform !== 'linux')(
  `${ROUNDS} walk threads ended during their boot: the process exits 0`,
  async () => {
    const child = spawn(process.execPath, [SCRIPT, POOL, String(ROUNDS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
    expect(err.split('\n').find((line) => line.includes('FATAL')) ?? null).toBeNull();
    expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: `ended ${ROUNDS}\n` });
  },
  120_000,
);

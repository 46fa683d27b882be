// A walk thread ended while koffi loads in it aborted holdwatch (FATAL ERROR ... napi_throw, JS stack
// loadLibc <- scan-worker): koffi throws into a thread that is stopping, and Node ends the whole
// process, exit code and all, after a run's report was written. The thread of a ThreadedHolderSource
// (Windows' scans off the owning thread) loads koffi as it boots too, and an owner that gives up its
// start ends it. Here a real Node process starts and ends such threads again and again, each at another
// moment of its boot, and must exit 0. Without the one gate both use (native/koffi-load-gate.ts) most
// such processes abort; none may. The gate and koffi's load are the same on Windows, so both run here.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';

const distUrl = (...path: string[]) => pathToFileURL(join(REPO_ROOT, 'dist', ...path)).href;
const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

/** Runs `script <moduleUrl> <rounds>` in a Node process of its own; it must print "ended <rounds>" and exit 0. */
async function expectRoundsEnd(script: string, moduleUrl: string, rounds: number): Promise<void> {
  const child = spawn(process.execPath, [script, moduleUrl, String(rounds)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  expect(err.split('\n').find((line) => line.includes('FATAL')) ?? null).toBeNull();
  expect({ code, signal, out }).toEqual({ code: 0, signal: null, out: `ended ${rounds}\n` });
}

it.skipIf(process.platform !== 'linux')(
  '150 walk threads ended during their boot: the process exits 0',
  () => expectRoundsEnd(fixture('end-booting-scan-workers.mjs'), distUrl('native', 'linux', 'scan-pool.js'), 150),
  120_000,
);

it(
  '120 holder threads given up during their boot: the process exits 0',
  () => expectRoundsEnd(fixture('end-booting-holder-threads.mjs'), distUrl('native', 'threaded', 'threaded-holder-source.js'), 120),
  180_000,
);

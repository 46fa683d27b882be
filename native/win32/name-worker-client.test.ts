// How the name worker is started, with the real client and a real child process (a stand-in worker
// that speaks the protocol): under Electron the executable is the app, which quits at once when started
// as a second instance (the single-instance lock); the worker must be started as plain Node, and in a
// folder of its own, never the host's cwd.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NameWorkerClient } from './name-worker-client.js';

const WORKER = join(import.meta.dirname, '../../tests/fixtures/name-worker/answering-worker.mjs');
const realExecPath = process.execPath;
let scratch: string;

beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-name-worker-'));
});
afterEach(() => {
  process.execPath = realExecPath;
  delete (process.versions as Record<string, string | undefined>).electron;
  rmSync(scratch, { recursive: true, force: true });
});

/** An "app" executable that behaves as Electron does here: a second instance exits 0 at once; as Node, it is Node. */
function fakeElectronApp(): string {
  const app = join(scratch, 'app', 'holdwatch');
  mkdirSync(dirname(app), { recursive: true });
  writeFileSync(app, `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || exit 0\nexec "${realExecPath}" "$@"\n`);
  chmodSync(app, 0o755);
  return app;
}

const items = [{ pid: 10, handle: '44' }];
const deadlines = { perQueryMs: 5000, totalMs: 10_000, startupMs: 10_000 };

describe('NameWorkerClient starting its worker', () => {
  it('inside the Electron app, starts the app as plain Node: every handle is named', async () => {
    process.execPath = fakeElectronApp();
    Object.defineProperty(process.versions, 'electron', { value: '42.0.0', configurable: true, enumerable: true });
    const client = new NameWorkerClient(deadlines, { script: WORKER, args: [] });
    try {
      const [outcome] = await client.nameAll(items, []);
      expect(outcome).toMatchObject({ kind: 'named', answer: { name: expect.stringMatching(/\|44$/) } });
      expect(client.starts).toBe(1);
    } finally {
      client.dispose();
    }
  });

  it("runs the worker in the executable's folder, not in the host's cwd (which may be a watched dir)", async () => {
    const client = new NameWorkerClient(deadlines, { script: WORKER, args: [] });
    try {
      const [outcome] = await client.nameAll(items, []);
      expect(outcome?.kind === 'named' && outcome.answer.name).toBe(`${dirname(process.execPath)}|44`);
      expect(dirname(process.execPath)).not.toBe(process.cwd());
    } finally {
      client.dispose();
    }
  });
});

describe('NameWorkerClient with a worker that keeps going past hung queries', () => {
  it('a query stalled by the worker is unnamed without a restart; a retiring worker is replaced and the rest asked of the next one', async () => {
    const entry = { script: join(import.meta.dirname, '../../tests/fixtures/name-worker/retiring-worker.mjs'), args: [join(scratch, 'marker')] };
    const client = new NameWorkerClient({ ...deadlines, workerQueryMs: 250 }, entry);
    try {
      const outcomes = await client.nameAll(
        ['0', '1', '2', '3', '4'].map((handle) => ({ pid: 10, handle })),
        [],
      );
      expect(outcomes.map((o) => (o.kind === 'named' ? o.answer.name : `${o.reason} (stalled: ${o.stalled})`))).toEqual([
        'handle 0 (pool 16, 250 ms)',
        "name query passed the worker's 250 ms deadline (a pipe that hangs, or a very slow disk) (stalled: true)",
        'handle 2 (pool 16, 250 ms)',
        'handle 3 (pool 16, 250 ms)',
        'handle 4 (pool 16, 250 ms)',
      ]);
      expect(client.starts).toBe(2);
    } finally {
      client.dispose();
    }
  });
});

describe('NameWorkerClient disposed while a batch is being asked', () => {
  it('ends the batch without starting another worker for the handles after the one being asked', async () => {
    const silent = join(scratch, 'silent-worker.mjs');
    writeFileSync(silent, `process.stdout.write(JSON.stringify({ type: 'ready', pid: process.pid }) + '\\n'); process.stdin.resume();`);
    const client = new NameWorkerClient(deadlines, { script: silent, args: [] });
    const asked = client.nameAll(
      ['44', '48', '52'].map((handle) => ({ pid: 10, handle })),
      [],
    );
    while (client.workerPid === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the batch is out, unanswered
    client.dispose();
    const outcomes = await asked;
    expect(outcomes.slice(1)).toEqual([
      { kind: 'unnamed', reason: 'name worker did not start', stalled: false },
      { kind: 'unnamed', reason: 'name worker did not start', stalled: false },
    ]);
    expect(client.starts).toBe(1);
    expect(client.workerPid).toBeUndefined();
  });
});

describe("NameWorkerClient when the scan's naming budget runs out", () => {
  const SLOW = join(import.meta.dirname, '../../tests/fixtures/name-worker/slow-worker.mjs');
  const unasked = { kind: 'unnamed', reason: 'scan passed its naming deadline', stalled: false };
  const handles = (count: number) => Array.from({ length: count }, (_, i) => ({ pid: 10, handle: String(4 * (i + 1)) }));

  it('a healthy worker answering every 300 ms: handles past the budget are unasked, none stalled', async () => {
    // Ten answers take 3 s; the budget is 1 s: the budget runs out mid-batch, whatever the machine's speed.
    const client = new NameWorkerClient({ perQueryMs: 1000, totalMs: 1000, startupMs: 10_000 }, { script: SLOW, args: ['300'] });
    try {
      const outcomes = await client.nameAll(handles(10), []);
      const named = outcomes.filter((o) => o.kind === 'named').length;
      expect(named).toBeLessThan(10);
      expect(outcomes.slice(0, named).every((o) => o.kind === 'named')).toBe(true);
      expect(outcomes.slice(named)).toEqual(Array.from({ length: 10 - named }, () => unasked));
    } finally {
      client.dispose();
    }
  });

  it('a worker whose start-up took longer than the budget, then answers in 20 ms: every handle is named', async () => {
    const client = new NameWorkerClient({ perQueryMs: 1000, totalMs: 300, startupMs: 10_000 }, { script: SLOW, args: ['20', '600'] });
    try {
      const outcomes = await client.nameAll(handles(3), []);
      expect(outcomes.map((o) => (o.kind === 'named' ? o.answer.name : o.reason))).toEqual(['handle 4', 'handle 8', 'handle 12']);
    } finally {
      client.dispose();
    }
  });
});

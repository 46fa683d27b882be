// A local user without the token holds idle connections to holdwatch's ports (reliability-2.md F3):
// every connection kept is an fd, and with the fd table full the UI's watch stopped for good
// ("EMFILE … scandir '/proc'") and a run's scans failed. holdwatch runs here under a small fd limit
// (prlimit) so that a flood of 1,000 connections would fill it: the watch goes on scanning, the page
// still connects, and the flood's connections are the ones dropped.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BoundaryServer } from '../../host/run/boundary-server.js';
import { startUi, type RunningUi } from '../ui/ui-support.js';

const FLOOD = 1_000;
let scratch: string;
const open: Socket[] = [];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-flood-'));
});

afterAll(() => {
  for (const socket of open) socket.destroy();
  rmSync(scratch, { recursive: true, force: true });
});

/** `count` idle connections (no byte sent); resolves once each is connected or refused; counts those the server closes. */
async function flood(port: number, count: number): Promise<{ closedByServer: () => number }> {
  let closed = 0;
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          open.push(socket);
          socket.on('error', () => resolve());
          socket.once('connect', () => resolve());
          socket.once('close', () => closed++);
        }),
    ),
  );
  return { closedByServer: () => closed };
}

const until = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
};

interface Status {
  scans: number;
  error: string | null;
}

/** The page's side: a WebSocket with the token; the watch statuses it receives. */
function page(ui: RunningUi): Promise<{ ws: WebSocket; statuses: Status[]; call: (method: string, request?: unknown) => Promise<unknown> }> {
  const ws = new WebSocket(`${ui.origin.replace('http', 'ws')}/api`, ['holdwatch', `holdwatch.token.${ui.token}`], { headers: { origin: ui.origin } });
  const statuses: Status[] = [];
  const pending = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  ws.on('message', (data) => {
    const message = JSON.parse((data as Buffer).toString()) as { id?: number; result?: unknown; error?: string; event?: { channel: string; status?: Status } };
    if (message.event?.channel === 'watch-status') statuses.push(message.event.status!);
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? message.error);
  });
  const call = (method: string, request?: unknown) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, request }));
    });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, statuses, call }));
    ws.once('error', reject);
  });
}

describe.skipIf(process.platform !== 'linux')('a flood of idle connections', () => {
  it('to `holdwatch ui`: the watch keeps scanning, a new page still connects, the flood is shed', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') }, { maxFds: 256 });
    try {
      const first = await page(ui);
      await first.call('startWatch', { dirs: [watched], intervalMs: 100 });
      await until(() => first.statuses.some((s) => s.scans >= 1));
      const port = Number(new URL(ui.origin).port);
      const { closedByServer } = await flood(port, FLOOD);
      await until(() => closedByServer() >= FLOOD - 64);
      // Scans after the flood, none failed.
      const seen = first.statuses.at(-1)!.scans;
      await until(() => first.statuses.some((s) => s.scans >= seen + 3) || first.statuses.some((s) => s.error !== null));
      expect(first.statuses.filter((s) => s.error !== null)).toEqual([]);
      const second = await page(ui);
      expect(await second.call('defaultDir')).toBe(tmpdir());
      second.ws.close();
      first.ws.close();
      expect(ui.stderr()).not.toMatch(/EMFILE/);
    } finally {
      await ui.stop();
    }
  }, 60_000);

  it('to a run’s boundary port: connections without a hello are shed and timed out; a test process with the token is answered', async () => {
    const answered: number[] = [];
    const errors: unknown[] = [];
    const server = await BoundaryServer.start(
      async (_event, pid) => {
        answered.push(pid);
      },
      (error) => errors.push(error),
      { maxTotal: 2048, maxUntrusted: 64, untrustedDeadlineMs: 1_000 },
    );
    try {
      const [host, port, token] = server.address.split(':');
      const { closedByServer } = await flood(Number(port), FLOOD);
      await until(() => closedByServer() >= FLOOD - 64);
      // The 64 kept are dropped too once their hello is late.
      await until(() => closedByServer() === FLOOD);
      const ack = await new Promise<string>((resolve, reject) => {
        const client = connect(Number(port), host);
        open.push(client);
        client.on('error', reject);
        client.on('data', (data) => resolve(data.toString()));
        client.once('connect', () => {
          client.write(`${JSON.stringify({ type: 'hello', token, pid: 4242 })}\n`);
          client.write(`${JSON.stringify({ type: 'test-end', seq: 1, name: 't', atMs: Date.now() })}\n`);
        });
      });
      expect(JSON.parse(ack)).toEqual({ type: 'ack', seq: 1 });
      expect(answered).toEqual([4242]);
      expect(errors).toEqual([]);
    } finally {
      server.close();
    }
  }, 60_000);
});

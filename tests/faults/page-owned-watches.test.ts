// A page's watches die with the page (reliability-2.md F6): each reload of the UI, each closed tab, left
// its watch scanning for no one (threads 11 -> 31, RSS 162 -> 425 MB after 20 closed sockets). The
// real session behind the real web host: a watch started over a WebSocket is stopped when that
// WebSocket closes, or when it stops answering pings (a machine asleep, an SSH tunnel gone).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RENDERER_DIR } from '../../dist/host/install-paths.js';
import type { HostSession } from '../../dist/host/session/host-session.js';
import { startUiServer, type UiServer } from '../../dist/host/web/ui-server.js';
import { scratchSession } from '../support/scratch-session.js';

let scratch: string;
let watched: string;
let session: HostSession;
let server: UiServer;
/** Full scans reported per watch, whoever started it. */
const scans = new Map<string, number>();
/** The watches the web host has stopped, and stopped in the session. */
const stopped = new Set<string>();

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-page-watches-'));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
  session = scratchSession(scratch);
  session.onWatchStatus((watchId) => scans.set(watchId, (scans.get(watchId) ?? 0) + 1));
  // The session as the web host sees it, its stopWatch calls noted once they are done.
  const service = new Proxy(session, {
    get(target, property) {
      if (property === 'stopWatch') return (watchId: string) => target.stopWatch(watchId).then(() => void stopped.add(watchId));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  server = await startUiServer({ service, port: 0, staticDir: RENDERER_DIR, heartbeatMs: 2_000 });
});

afterAll(async () => {
  await server?.close();
  await session?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

function openPage(options: { autoPong?: boolean } = {}): Promise<WebSocket> {
  const origin = `http://127.0.0.1:${server.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api`, ['holdwatch', `holdwatch.token.${server.token}`], { headers: { origin }, ...options });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function startWatch(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as { id?: number; result?: { watchId: string } };
      if (message.id === 1) resolve(message.result!.watchId);
    });
    ws.send(JSON.stringify({ id: 1, method: 'startWatch', request: { dirs: [watched], intervalMs: 100 } }));
  });
}

/** Resolves once the web host stopped the watch; rejects when it keeps scanning `scansAllowed` more times. */
async function stopsScanning(watchId: string, scansAllowed = 30): Promise<void> {
  const limit = (scans.get(watchId) ?? 0) + scansAllowed;
  for (;;) {
    if (stopped.has(watchId)) return;
    if ((scans.get(watchId) ?? 0) >= limit) throw new Error(`watch ${watchId} still scans ${scansAllowed} scans after its page went`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const until = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('watches started by a page', () => {
  it('stop when the page closes; another page’s watch goes on', async () => {
    const staying = await openPage();
    const stayingWatch = await startWatch(staying);
    const pages = await Promise.all(Array.from({ length: 3 }, () => openPage()));
    const watchIds = await Promise.all(pages.map(startWatch));
    await until(() => watchIds.every((id) => (scans.get(id) ?? 0) >= 1));
    for (const page of pages) page.close();
    await Promise.all(watchIds.map((id) => stopsScanning(id)));
    const before = scans.get(stayingWatch) ?? 0;
    await until(() => (scans.get(stayingWatch) ?? 0) >= before + 2);
    staying.close();
    await stopsScanning(stayingWatch);
  }, 120_000);

  it('stop when the page stops answering pings', async () => {
    const silent = await openPage({ autoPong: false });
    const watchId = await startWatch(silent);
    await until(() => (scans.get(watchId) ?? 0) >= 1);
    await stopsScanning(watchId);
    await until(() => silent.readyState === WebSocket.CLOSED);
    expect(silent.readyState).toBe(WebSocket.CLOSED);
  }, 120_000);
});

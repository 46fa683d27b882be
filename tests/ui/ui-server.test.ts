// `holdwatch ui` as a browser's peer would see it: the token, the Host and Origin checks, and a
// malformed request answered with an error while the connection (and the host) keep working. The
// attacks (resets, hostile frames, the token on command lines) are in tests/security.
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startUi, type RunningUi } from './ui-support.js';

let ui: RunningUi;
let data: string;
let token: string;

beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'hw-ui-server-'));
  ui = await startUi({ HOLDWATCH_DATA_DIR: data });
  token = ui.token;
}, 30_000);

afterAll(async () => {
  const code = await ui?.stop();
  rmSync(data, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** A raw request, so the Host header can be anything (fetch would not let us lie about it). */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = new URL(ui.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(headers: Record<string, string>, path = '/api', protocols: string[] = []): Promise<WebSocket> {
  const ws = new WebSocket(`${ui.origin.replace('http', 'ws')}${path}`, protocols, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function call(ws: WebSocket, message: unknown): Promise<{ id: number | null; ok: boolean; result?: unknown; error?: string }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const parsed = JSON.parse((data as Buffer).toString()) as { id?: number | null; ok?: boolean; event?: unknown };
      if (parsed.event !== undefined) return;
      ws.off('message', onMessage);
      resolve(parsed as { id: number | null; ok: boolean });
    };
    ws.on('message', onMessage);
    ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  });
}

describe('holdwatch ui: the web host', () => {
  const withToken = () => ['holdwatch', `holdwatch.token.${token}`];

  it('listens on 127.0.0.1 and prints a URL whose fragment carries the token', () => {
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{32}$/);
  });

  it('serves the public renderer build with a strict CSP and sets no cookie', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'(;|$)/);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await get('/', {}, 'POST')).status).toBe(405);
  });

  it('refuses a Host header that is not its own (DNS rebinding)', async () => {
    expect((await get('/', { host: 'attacker.example:80' })).status).toBe(403);
  });

  it('refuses a WebSocket without the token, with a wrong one, from another origin, or on another path', async () => {
    await expect(connect({ origin: ui.origin }, '/api', ['holdwatch'])).rejects.toThrow(/HTTP 401/);
    await expect(connect({ origin: ui.origin }, '/api', ['holdwatch', `holdwatch.token.${token.slice(1)}x`])).rejects.toThrow(/HTTP 401/);
    await expect(connect({ origin: ui.origin, cookie: `holdwatch_token=${token}` })).rejects.toThrow(/HTTP 401/);
    await expect(connect({ origin: 'http://attacker.example' }, '/api', withToken())).rejects.toThrow(/HTTP 403/);
    await expect(connect({ origin: ui.origin }, '/elsewhere', withToken())).rejects.toThrow(/HTTP 403/);
  });

  it('answers a malformed request with an error and keeps serving', async () => {
    const ws = await connect({ origin: ui.origin }, '/api', withToken());
    try {
      expect(ws.protocol).toBe('holdwatch');
      await expect(call(ws, 'not json')).resolves.toMatchObject({ id: null, ok: false, error: 'a request must be JSON' });
      await expect(call(ws, { id: 1, method: 'startWatch', request: { dirs: [42] } })).resolves.toMatchObject({
        id: 1,
        ok: false,
        error: expect.stringMatching(/startWatch request/),
      });
      await expect(call(ws, { id: 2, method: '__proto__', request: {} })).resolves.toMatchObject({
        id: 2,
        ok: false,
        error: expect.stringMatching(/unknown method/),
      });
      await expect(call(ws, { id: 3, method: 'startWatch', request: { dirs: [join(data, 'missing')] } })).resolves.toMatchObject({
        id: 3,
        ok: false,
        error: expect.stringMatching(/no such directory/),
      });
      await expect(call(ws, { id: 4, method: 'defaultDir' })).resolves.toEqual({ id: 4, ok: true, result: tmpdir() });
    } finally {
      ws.close();
    }
  });
});

// The web host of `holdwatch ui`: the built renderer and the service over a WebSocket, on 127.0.0.1
// only. A random token guards both (the URL carries it once; a strict cookie afterwards), the Host
// header must name this server (DNS rebinding), and a WebSocket must come from this origin.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { HoldwatchService } from '../../contract/service.js';
import { ContractError, dispatchRequest, subscribeAll } from '../../contract/service-client.js';
import { BadInputError, messageOf } from '../../core/errors.js';
import { readStaticFile, rendererCsp } from './static-files.js';

const COOKIE = 'holdwatch_token';
const API_PATH = '/api';
/** Requests are small (paths, commands); this bounds what a hostile peer can make us parse. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export interface UiServerOptions {
  service: HoldwatchService;
  port: number;
  /** The built renderer (index.html and its assets). */
  staticDir: string;
}

export interface UiServer {
  port: number;
  token: string;
  /** Open this: it carries the token. */
  url: string;
  close(): Promise<void>;
}

export async function startUiServer({ service, port, staticDir }: UiServerOptions): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  let boundPort = port;
  const hosts = () => [`127.0.0.1:${boundPort}`, `localhost:${boundPort}`];
  const tokenOf = (req: IncomingMessage): string | null => new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? cookieOf(req, COOKIE);
  const authorized = (req: IncomingMessage) => sameSecret(tokenOf(req), token);
  const hostAllowed = (req: IncomingMessage) => hosts().includes(req.headers.host ?? '');
  const csp = () => rendererCsp(`'self' ws://127.0.0.1:${boundPort} ws://localhost:${boundPort}`);

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => send(res, 500, 'text/plain', 'holdwatch ui: internal error'));
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req)) return send(res, 403, 'text/plain', 'holdwatch ui answers only on 127.0.0.1 and localhost');
    if (!authorized(req)) return send(res, 401, 'text/plain', 'holdwatch ui: open the URL printed in the terminal (it carries the access token)');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.searchParams.has('token')) {
      // Trade the token in the address bar for a cookie, so it leaves the URL (history, screenshots).
      res.setHeader('Set-Cookie', `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`);
      url.searchParams.delete('token');
      res.writeHead(303, { Location: url.pathname + url.search });
      res.end();
      return;
    }
    const file = await readStaticFile(staticDir, url.pathname);
    if (!file) {
      if (url.pathname === '/' || url.pathname === '/index.html')
        return send(res, 500, 'text/plain', 'holdwatch ui: the renderer is not built; run `npm run build` in the holdwatch checkout');
      return send(res, 404, 'text/plain', 'not found');
    }
    res.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Security-Policy': csp(),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const origin = req.headers.origin ?? '';
    const originAllowed = hosts().some((h) => origin === `http://${h}`);
    if (path !== API_PATH || !hostAllowed(req) || !originAllowed || !authorized(req)) {
      socket.end(`HTTP/1.1 ${authorized(req) ? '403 Forbidden' : '401 Unauthorized'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, service));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new BadInputError(`port ${port} is in use; choose another with --port, or --port 0 for any free one`) : error),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  boundPort = (server.address() as AddressInfo).port;
  return {
    port: boundPort,
    token,
    url: `http://127.0.0.1:${boundPort}/?token=${token}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One browser tab: requests in, answers and the event stream out. */
function serveSocket(ws: WebSocket, service: HoldwatchService): void {
  const post = (message: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  };
  const unsubscribe = subscribeAll(service, (event) => post({ event }));
  ws.on('close', unsubscribe);
  ws.on('message', (data, isBinary) => {
    let message: { id?: unknown; method?: unknown; request?: unknown };
    try {
      if (isBinary) throw new ContractError('binary frames are not part of the protocol');
      message = JSON.parse(textOf(data)) as typeof message;
      if (typeof message !== 'object' || message === null || typeof message.id !== 'number')
        throw new ContractError('a request is {id: number, method, request}');
    } catch (error) {
      post({ id: null, ok: false, error: error instanceof ContractError ? error.message : 'a request must be JSON' });
      return;
    }
    const id = message.id;
    dispatchRequest(service, message.method, message.request).then(
      (result) => post({ id, ok: true, result }),
      (error: unknown) => post({ id, ok: false, error: readable(error) }),
    );
  });
}

/** What the user may read: our own typed errors as they are; anything else marked internal. */
function readable(error: unknown): string {
  if (error instanceof BadInputError || error instanceof ContractError) return error.message;
  return `internal error: ${messageOf(error)}`;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, 'X-Content-Type-Options': 'nosniff' });
  res.end(body);
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

function sameSecret(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A text frame's payload: one Buffer, or its fragments (ws's RawData). */
function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}

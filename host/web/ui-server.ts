// The web host of `holdwatch ui`: the built renderer and the service over a WebSocket, on 127.0.0.1
// only. The renderer's files are the public build and need no secret; the service does: a WebSocket
// must come from this origin, with the random token as a subprotocol (`holdwatch.token.<token>`). The
// token reaches the page in the URL's fragment, which no request, Referer or log carries, and the
// page keeps it in sessionStorage. No cookie: a browser sends cookies to every port of a host, so one
// would travel to every other server on 127.0.0.1 the user visits. The Host header must name this
// server (DNS rebinding). A peer's fault (a reset, an oversize or malformed frame) ends that one
// connection, with the close code the protocol gives it, never the server. Connections without the
// token are few and brief (connection-budget.ts): any local user can open them, and each is an fd.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { HoldwatchService } from '../../contract/service.js';
import { ContractError, subscribeAll } from '../../contract/service-client.js';
import { BadInputError, messageOf } from '../../core/errors.js';
import { sameSecret } from '../../core/same-secret.js';
import { ConnectionBudget, type ConnectionBudgetOptions } from '../connection-budget.js';
import { PageOwned } from '../page-owned.js';
import { PageSender, type SendLimits } from './page-sender.js';
import { readStaticFile, rendererCsp } from './static-files.js';
import { API_PATH, API_PROTOCOL, TOKEN_FRAGMENT_KEY, TOKEN_PROTOCOL_PREFIX } from '../../contract/ui-protocol.js';

/** Requests are small (paths, commands); this bounds what a hostile peer can make us parse. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** A tab whose machine slept or whose SSH tunnel dropped sends no close: its pings go unanswered. */
const HEARTBEAT_MS = 20_000;

/** A page loads its files over a few connections at once, then keeps one WebSocket per tab. */
export const UI_LIMITS: ConnectionBudgetOptions = { maxTotal: 1024, maxUntrusted: 64, untrustedDeadlineMs: 30_000 };

export interface UiServerOptions {
  service: HoldwatchService;
  port: number;
  /** The built renderer (index.html and its assets). */
  staticDir: string;
  limits?: ConnectionBudgetOptions;
  /** How often a page is pinged; one that has not answered the last ping by the next is closed. */
  heartbeatMs?: number;
  /** How much may wait for a slow page (page-sender.ts). */
  sendLimits?: SendLimits;
}

export interface UiServer {
  port: number;
  token: string;
  /** Open this: its fragment carries the token. */
  url: string;
  close(): Promise<void>;
}

export async function startUiServer({
  service,
  port,
  staticDir,
  limits = UI_LIMITS,
  heartbeatMs = HEARTBEAT_MS,
  sendLimits,
}: UiServerOptions): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  let boundPort = port;
  const hosts = () => [`127.0.0.1:${boundPort}`, `localhost:${boundPort}`];
  const authorized = (req: IncomingMessage) => {
    const offered = tokenOffered(req);
    return offered !== null && sameSecret(offered, token);
  };
  const hostAllowed = (req: IncomingMessage) => hosts().includes(req.headers.host ?? '');
  const csp = () => rendererCsp(`'self' ws://127.0.0.1:${boundPort} ws://localhost:${boundPort}`);

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch(() => send(res, 500, 'text/plain', 'holdwatch ui: internal error'));
  });
  const budget = new ConnectionBudget(limits);
  server.on('connection', (socket: Socket) => budget.admit(socket));

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req)) return send(res, 403, 'text/plain', 'holdwatch ui answers only on 127.0.0.1 and localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'method not allowed');
    const url = new URL(req.url ?? '/', 'http://x');
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

  // A malformed request line or header: Node's default answer is right, but a socket that is reset
  // meanwhile must not throw.
  server.on('clientError', (_error, socket: Duplex) => refuse(socket, '400 Bad Request'));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, handleProtocols: () => API_PROTOCOL });
  server.on('upgrade', (req, socket: Duplex, head) => {
    // Until ws takes the socket over, a peer's reset is ours to absorb.
    socket.on('error', () => socket.destroy());
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const origin = req.headers.origin ?? '';
    const originAllowed = hosts().some((h) => origin === `http://${h}`);
    if (!authorized(req)) return refuse(socket, '401 Unauthorized');
    if (path !== API_PATH || !hostAllowed(req) || !originAllowed) return refuse(socket, '403 Forbidden');
    budget.trust(socket as Socket);
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, service, heartbeatMs, sendLimits));
  });

  boundPort = await listenOnLoopback(server, port);
  return {
    port: boundPort,
    token,
    url: `http://127.0.0.1:${boundPort}/#${TOKEN_FRAGMENT_KEY}=${token}`,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Listens on 127.0.0.1 only; a port taken or privileged is the user's to change, said in one line. */
function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new BadInputError(`port ${port} is in use; choose another with --port, or --port 0 for any free one`)
          : error.code === 'EACCES'
            ? new BadInputError(`port ${port} needs privileges to listen on; choose one above 1023 with --port, or --port 0 for any free one`)
            : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * One browser tab: requests in, answers and the event stream out. What it starts is its own (PageOwned):
 * a tab closed, reloaded or silent past the heartbeat would leave it running for no one, so it ends
 * with the connection.
 */
function serveSocket(ws: WebSocket, service: HoldwatchService, heartbeatMs: number, sendLimits?: SendLimits): void {
  const sender = new PageSender(ws, sendLimits);
  const post = (message: unknown) => sender.reply(message);
  const unsubscribe = subscribeAll(service, (event) => sender.event(event));
  const page = new PageOwned(service);
  let answered = true;
  ws.on('pong', () => (answered = true));
  const heartbeat = setInterval(() => {
    if (!answered) return ws.terminate();
    answered = false;
    ws.ping();
  }, heartbeatMs);
  heartbeat.unref();
  ws.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    page.dispose();
  });
  // A frame over the limit, invalid UTF-8, a reserved opcode: ws has already closed this connection
  // with 1009, 1007 or 1002; the error only reports it, and unheard it would end the process.
  ws.on('error', () => undefined);
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
    const { method, request } = message;
    page.request(method, request).then(
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

/** The token a WebSocket offers as one of its subprotocols, or null. */
function tokenOffered(req: IncomingMessage): string | null {
  for (const protocol of String(req.headers['sec-websocket-protocol'] ?? '').split(',')) {
    const offered = protocol.trim();
    if (offered.startsWith(TOKEN_PROTOCOL_PREFIX)) return offered.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return null;
}

/** Answers a refused request on a raw socket and lets it go, whatever state the peer left it in. */
function refuse(socket: Duplex, status: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  // A peer that never closes its side does not keep the socket.
  setTimeout(() => socket.destroy(), 2_000).unref();
}

/** A text frame's payload: one Buffer, or its fragments (ws's RawData). */
function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(new Uint8Array(data)).toString('utf8');
}

// A WebSocket client written by hand, so a test can send what no well-behaved client would: reserved
// opcodes, invalid UTF-8, frames past the server's limit, resets in the middle of anything.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface RawSocket {
  socket: Socket;
  /** The HTTP status line the server answered the upgrade with. */
  status: string;
  /** Sends one frame, masked as a client must (unless `unmasked`). */
  frame(opcode: number, payload: Buffer, options?: { unmasked?: boolean }): void;
  /** The code of the server's close frame, or null when the connection ended without one. */
  closeCode(): Promise<number | null>;
}

export interface UpgradeOptions {
  port: number;
  origin: string;
  protocols?: string[];
}

export function upgradeRequest({ port, origin, protocols = [] }: UpgradeOptions): string {
  return [
    'GET /api HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    `Origin: ${origin}`,
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
    'Sec-WebSocket-Version: 13',
    ...(protocols.length > 0 ? [`Sec-WebSocket-Protocol: ${protocols.join(', ')}`] : []),
    '',
    '',
  ].join('\r\n');
}

export function openRawSocket(options: UpgradeOptions): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(options.port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let handshakeDone = false;
    let ended = false;
    const waiters: Array<() => void> = [];
    const settle = () => waiters.splice(0).forEach((w) => w());
    socket.on('error', () => undefined); // EPIPE / ECONNRESET once the server closed: expected here
    socket.on('close', () => {
      ended = true;
      settle();
      if (!handshakeDone) reject(new Error(`closed before the handshake: ${received.toString('latin1').slice(0, 200)}`));
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!handshakeDone) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        handshakeDone = true;
        const status = received.subarray(0, received.indexOf('\r\n')).toString('latin1');
        received = received.subarray(end + 4);
        resolve({ socket, status, frame: (opcode, payload, o) => socket.write(encodeFrame(opcode, payload, !o?.unmasked)), closeCode });
      }
      settle();
    });
    socket.write(upgradeRequest(options));

    function closeCode(): Promise<number | null> {
      return new Promise((done) => {
        const check = () => {
          const code = serverCloseCode(received);
          if (code !== null) return done(code);
          if (ended) return done(null);
          waiters.push(check);
        };
        check();
      });
    }
  });
}

function encodeFrame(opcode: number, payload: Buffer, masked: boolean): Buffer {
  const length = payload.length;
  const header: number[] = [0x80 | opcode];
  const maskBit = masked ? 0x80 : 0;
  if (length < 126) header.push(maskBit | length);
  else if (length < 65536) header.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    header.push(maskBit | 127, 0, 0, 0, 0);
    header.push((length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
  }
  if (!masked) return Buffer.concat([Buffer.from(header), payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from(header), mask, body]);
}

/** The status code of the first close frame (opcode 8) among the server's frames. */
function serverCloseCode(data: Buffer): number | null {
  let at = 0;
  while (at + 2 <= data.length) {
    const opcode = data[at]! & 0x0f;
    let length = data[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = data.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      length = Number(data.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    if (start + length > data.length) return null;
    if (opcode === 8) return length >= 2 ? data.readUInt16BE(start) : 1005;
    at = start + length;
  }
  return null;
}

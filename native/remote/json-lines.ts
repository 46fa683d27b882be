// Newline-delimited JSON on a socket (named pipe, unix socket, TCP), bounded: a peer that never sends
// a newline is cut off at `maxLineBytes` instead of growing the host's memory without end.
import type { Socket } from 'node:net';
import { LineSplitter } from '../../core/runners/line-splitter.js';
import { parseJsonOrUndefined } from '../../core/json-text.js';

/** Calls `onLine` with each parsed line (unparseable text arrives as `undefined`); `onEnd` once when the socket ends. */
export function readJsonLines(socket: Socket, maxLineBytes: number, onLine: (value: unknown) => void, onEnd: (reason: string) => void): void {
  const splitter = new LineSplitter();
  let sinceNewline = 0;
  let ended = false;
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    onEnd(reason);
  };
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    const lastNewline = chunk.lastIndexOf('\n');
    sinceNewline = lastNewline < 0 ? sinceNewline + chunk.length : chunk.length - lastNewline - 1;
    if (sinceNewline > maxLineBytes) {
      socket.destroy();
      end(`a line passed ${maxLineBytes} bytes`);
      return;
    }
    for (const line of splitter.push(chunk)) {
      if (ended) return;
      if (line.length > 0) onLine(parseJsonOrUndefined(line));
    }
  });
  socket.on('error', (error) => end(error.message));
  socket.on('close', () => end('the pipe closed'));
}

export function writeJsonLine(socket: Socket, value: unknown): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(value)}\n`);
}

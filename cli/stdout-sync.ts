// A one-shot command's output, written to fd 1 without process.stdout: making that stream loads Node's
// streams (and for a pipe, net), a large share of a one-shot scan's start. A pipe its reader made
// non-blocking (EAGAIN) takes the rest through process.stdout, which waits for room; a reader that went
// away (EPIPE, `holdwatch scan | head`) drops the output, as a closed pipe would. Windows keeps
// process.stdout: a console there takes UTF-16 (WriteConsoleW), not the UTF-8 bytes written here.
import { writeSync } from 'node:fs';

const STDOUT_FD = 1;

/** Writes `text`, or its pieces in order (jsonPieces), to fd 1; small pieces go out together. */
export function writeStdoutSync(text: string | Iterable<string>): void {
  const pieces = typeof text === 'string' ? [text] : text;
  if (process.platform === 'win32') {
    for (const piece of pieces) writeThroughStream(piece);
    return;
  }
  let pending = '';
  let throughStream = false;
  const flush = (): boolean => {
    const bytes = Buffer.from(pending, 'utf8');
    pending = '';
    if (throughStream) {
      writeThroughStream(bytes);
      return true;
    }
    const rest = writeSyncUntilFull(bytes);
    if (rest === 'closed') return false;
    if (rest !== null) {
      throughStream = true;
      writeThroughStream(rest);
    }
    return true;
  };
  for (const piece of pieces) {
    pending += piece;
    if (pending.length >= WRITE_AT_CHARS && !flush()) return;
  }
  if (pending !== '') flush();
}

const WRITE_AT_CHARS = 64 * 1024;

/** null when all was written; the bytes left when the pipe is full and non-blocking (EAGAIN); 'closed' when its reader left (EPIPE). */
function writeSyncUntilFull(bytes: Buffer): Buffer | 'closed' | null {
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(STDOUT_FD, bytes, at, bytes.length - at);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return 'closed';
    if (code !== 'EAGAIN') throw error;
    return bytes.subarray(at);
  }
}

/** Through process.stdout, which waits for room; an error there (EPIPE once the reader left) drops the rest. */
function writeThroughStream(data: string | Buffer): void {
  process.stdout.on('error', () => undefined);
  process.stdout.write(data);
}

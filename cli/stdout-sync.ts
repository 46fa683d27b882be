// A one-shot command's output, written to fd 1 without process.stdout: making that stream loads Node's
// streams (and for a pipe, net), a large share of a one-shot scan's start. A pipe its reader made
// non-blocking (EAGAIN) takes the rest through process.stdout, which waits for room; a reader that went
// away (EPIPE, `holdwatch scan | head`) drops the output, as a closed pipe would. Windows keeps
// process.stdout: a console there takes UTF-16 (WriteConsoleW), not the UTF-8 bytes written here.
import { writeSync } from 'node:fs';

const STDOUT_FD = 1;

export function writeStdoutSync(text: string): void {
  if (process.platform === 'win32') return writeThroughStream(text);
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  try {
    while (at < bytes.length) at += writeSync(STDOUT_FD, bytes, at, bytes.length - at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw error;
    writeThroughStream(bytes.subarray(at));
  }
}

/** Through process.stdout, which waits for room; an error there (EPIPE once the reader left) drops the rest. */
function writeThroughStream(data: string | Buffer): void {
  process.stdout.on('error', () => undefined);
  process.stdout.write(data);
}

// Random bytes as hex, for run ids and the boundary channel's token. On Linux they come from
// /dev/urandom, the kernel's CSPRNG: node:crypto is the largest built-in a run's start would load,
// for a few bytes. Elsewhere, or without /dev/urandom (a bare sandbox), node:crypto gives them.
import { closeSync, openSync, readSync } from 'node:fs';

export function randomHex(bytes: number, platform: NodeJS.Platform = process.platform): string {
  const fromKernel = platform === 'linux' ? readUrandom(bytes) : null;
  return (fromKernel ?? process.getBuiltinModule('node:crypto').randomBytes(bytes)).toString('hex');
}

function readUrandom(bytes: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(bytes);
    // /dev/urandom gives a read this small whole; the loop is for the letter of read(2).
    for (let offset = 0; offset < bytes;) offset += readSync(fd, buffer, offset, bytes - offset, null);
    return buffer;
  } finally {
    closeSync(fd);
  }
}

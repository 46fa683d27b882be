// fdinfo as the kernel prints it, and read from a real process that holds an flock and a POSIX lock.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFdInfo, readFdInfo } from './fdinfo.js';

describe('parseFdInfo', () => {
  it('reads flags and lock lines, skipping blocked waiters', () => {
    const text = [
      'pos:\t0',
      'flags:\t02102001',
      'mnt_id:\t27',
      'ino:\t2162750',
      'lock:\t1: FLOCK  ADVISORY  WRITE 1234 00:1b:2162750 0 EOF',
      'lock:\t2: POSIX  ADVISORY  READ 1234 00:1b:2162750 10 99',
      'lock:\t2: -> POSIX  ADVISORY  WRITE 999 00:1b:2162750 0 EOF',
      '',
    ].join('\n');
    expect(parseFdInfo(text)).toEqual({ flags: 0o2102001, locks: ['FLOCK ADVISORY WRITE', 'POSIX ADVISORY READ 10-99'] });
    expect(parseFdInfo('pos:\t0\n')).toEqual({ flags: null, locks: [] });
  });

  it('reads a real process: an fd opened for reading and writing that holds a POSIX lock', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hw-fdinfo-'));
    const script =
      'import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); fcntl.lockf(fd, fcntl.LOCK_EX); print(fd, flush=True); sys.stdin.read()';
    const child = spawn('python3', ['-c', script, join(dir, 'locked.db')], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const fd = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const info = readFdInfo(child.pid!, fd);
      expect(info!.flags! & 3).toBe(2); // O_RDWR
      expect(info!.locks).toEqual(['POSIX ADVISORY WRITE']);
      expect(readFdInfo(child.pid!, '9999')).toBeNull();
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

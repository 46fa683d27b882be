// The access mode a scan reads from each fd's /proc link mode, against a real process holding one
// file per mode (O_RDONLY, O_WRONLY, O_RDWR, O_PATH) and a directory, and fdinfo's full flags for the
// same fds; read by Node's stats after the walk and by libc's statx beside each readlink, alike.
import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linuxHandleAccess } from '../../core/handle-access.js';
import { holdingsOf, walkPids, type RawHolding } from './fd-walk.js';
import { readFdInfo } from './fdinfo.js';
import { libcProcReader, nodeProcReader } from './proc-reader.js';

describe('walkPids access modes', () => {
  it('reads read, write, read-write and O_PATH from the fd links', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'hw-fd-access-')));
    const script = `
import os, sys
d = sys.argv[1]
fds = {m: os.open(os.path.join(d, m), f | os.O_CREAT, 0o644) for m, f in [("r", os.O_RDONLY), ("w", os.O_WRONLY), ("rw", os.O_RDWR)]}
fds["path"] = os.open(os.path.join(d, "r"), os.O_PATH)
fds["dir"] = os.open(d, os.O_RDONLY)
print(" ".join(f"{k}={v}" for k, v in fds.items()), flush=True)
sys.stdin.read()`;
    const child = spawn('python3', ['-c', script, dir], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
      });
      const fds = Object.fromEntries(line.split(' ').map((kv) => kv.split('='))) as Record<string, string>;
      const dirs = [{ matchPrefix: dir, display: dir }];
      const libc = libcProcReader();
      if (!libc) throw new Error('koffi or libc did not load here');
      const walks = {
        node: holdingsOf(walkPids([child.pid!], dirs, { reader: nodeProcReader })),
        libc: holdingsOf(walkPids([child.pid!], dirs, { reader: libc, withFacts: true })),
      };
      for (const holdings of Object.values(walks)) {
        const row = (name: string): RawHolding => holdings.find((h) => h.handle === `fd ${fds[name]}`)!;
        const rightsOf = (name: string) => linuxHandleAccess(row(name).openFlags!).rights;
        expect([rightsOf('r'), rightsOf('w'), rightsOf('rw'), rightsOf('path'), rightsOf('dir')]).toEqual([
          ['read'],
          ['write'],
          ['read', 'write'],
          [],
          ['read'],
        ]);
        expect(['r', 'w', 'rw', 'path', 'dir'].map((name) => row(name).kind)).toEqual(['file', 'file', 'file', 'file', 'dir']);
      }
      expect(walks.libc).toEqual(walks.node);
      // The details panel's fdinfo read agrees, with the flags the link mode cannot carry.
      expect(linuxHandleAccess(readFdInfo(child.pid!, fds.path!)!.flags!).flags).toMatch(/O_PATH/);
      expect(linuxHandleAccess(readFdInfo(child.pid!, fds.w!)!.flags!).rights).toEqual(['write']);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

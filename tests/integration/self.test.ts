// holdwatch must never be the holder: its own fds stay flat across many scans, and a process that
// cannot be read is listed in `denied`, never dropped.
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../contract/holders.js';
import type * as LinuxModule from '../../native/linux/linux-holder-source.js';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-self-'));
  chmodSync(dir, 0o755); // nobody must be able to name it
});

afterAll(async () => {
  await killAllHolders();
  rmSync(dir, { recursive: true, force: true });
});

const ownFdCount = () => readdirSync('/proc/self/fd').length;

describe('holdwatch holds nothing of its own', () => {
  it('has the same fd count after 1,000 scans as after 1, and never lists itself', async () => {
    // The built code, as the CLI runs it: worker threads only resolve from dist.
    const { LinuxHolderSource } = (await import(`${REPO_ROOT}dist/native/linux/linux-holder-source.js`)) as typeof LinuxModule;
    const source = new LinuxHolderSource({ walkThread: 'worker' });
    try {
      const watchDir = await source.resolveWatchDir(dir);
      await pythonHoldingFile(join(dir, 'held.txt'));
      // A walk no longer waits for a worker still booting: its thread's own fds (its loop) come when
      // it is up, which is not a scan's leak, so the count starts once it is.
      await source.whenThreadsOnline();
      const first = await source.scan({ dirs: [watchDir] });
      const afterOne = ownFdCount();
      let last = first;
      for (let i = 1; i < 1000; i++) last = await source.scan({ dirs: [watchDir] });
      expect(ownFdCount()).toBe(afterOne);
      expect(last.holders.map((h) => h.path)).toEqual([join(dir, 'held.txt')]);
      expect(last.holders.some((h) => h.pid === process.pid)).toBe(false);
    } finally {
      await source.dispose();
    }
  }, 180_000); // 1,000 full scans: seconds alone, longer on a loaded 2-core machine
});

describe.skipIf(process.getuid?.() !== 0)('as a user who may not read other processes', () => {
  it('lists root-owned holders in denied with a reason, and exits 0', async () => {
    const holder = await pythonHoldingFile(join(dir, 'root-owned.txt'));
    const result = await runCli(['scan', dir, '--json'], { asUser: 'nobody', cwd: '/' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const snapshot = JSON.parse(result.stdout) as Snapshot;
    expect(snapshot.holders.some((h) => h.pid === holder.pid)).toBe(false);
    expect(snapshot.denied).toContainEqual({ pid: holder.pid, name: expect.stringMatching(/^python3/), reason: expect.stringMatching(/^EACCES/) });
  });
});

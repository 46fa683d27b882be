// A process's identity is (pid, start time), and the start time must come out the same from every
// thread and every source that reads it: run membership compares them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type * as HolderModule from '../../native/linux/linux-holder-source.js';
import type * as ProcessModule from '../../native/linux/linux-process-source.js';
import { REPO_ROOT } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-identity-'));
afterAll(async () => {
  await killAllHolders();
  rmSync(dir, { recursive: true, force: true });
});

it('start times agree between the scan threads and the process list', async () => {
  const { LinuxHolderSource } = (await import(`${REPO_ROOT}dist/native/linux/linux-holder-source.js`)) as typeof HolderModule;
  const { LinuxProcessSource } = (await import(`${REPO_ROOT}dist/native/linux/linux-process-source.js`)) as typeof ProcessModule;
  const holders = await Promise.all(Array.from({ length: 6 }, (_, i) => pythonHoldingFile(join(dir, `f${i}`))));
  const source = new LinuxHolderSource({ walkThread: 'worker' });
  try {
    const watchDir = await source.resolveWatchDir(dir);
    const scanned = (await source.scan({ dirs: [watchDir] })).holders;
    const listed = new Map((await new LinuxProcessSource().listProcesses()).map((p) => [p.pid, p.startedAtMs]));
    expect(scanned.map((h) => h.pid).sort()).toEqual(holders.map((h) => h.pid).sort());
    for (const h of scanned) expect(h.processStartedAtMs).toBe(listed.get(h.pid));
  } finally {
    await source.dispose();
  }
});

// One holder source shared by two watches (the UI does this): scans that overlap must each get
// their own answer, never the other's.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type * as HolderModule from '../../native/linux/linux-holder-source.js';
import { REPO_ROOT } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

const root = mkdtempSync(join(tmpdir(), 'hw-concurrent-'));
afterAll(async () => {
  await killAllHolders();
  rmSync(root, { recursive: true, force: true });
});

it('overlapping scans of different dirs on one source each see their own holders', async () => {
  const { LinuxHolderSource } = (await import(`${REPO_ROOT}dist/native/linux/linux-holder-source.js`)) as typeof HolderModule;
  const [a, b] = ['a', 'b'].map((name) => join(root, name));
  mkdirSync(a!);
  mkdirSync(b!);
  await pythonHoldingFile(join(a!, 'x'));
  await pythonHoldingFile(join(b!, 'y'));
  const source = new LinuxHolderSource({ walkThread: 'worker' });
  try {
    const [da, db] = await Promise.all([source.resolveWatchDir(a!), source.resolveWatchDir(b!)]);
    for (let i = 0; i < 10; i++) {
      const [ra, rb] = await Promise.all([source.scan({ dirs: [da] }), source.scan({ dirs: [db] })]);
      expect(ra.holders.map((h) => h.path)).toEqual([join(a!, 'x')]);
      expect(rb.holders.map((h) => h.path)).toEqual([join(b!, 'y')]);
    }
  } finally {
    await source.dispose();
  }
});

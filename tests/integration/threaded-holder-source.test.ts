// The holder source on a worker thread (what the app uses on Windows, where the scan's synchronous
// calls would freeze the window): the same answers as in-process, bad input still bad input, the
// thread gone after dispose. Run here with the Linux backend; under Wine with the Windows one.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { holderKey } from '../../contract/identity.js';
import type * as NativeModule from '../../native/index.js';
import { REPO_ROOT } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile, pythonWithCwd } from '../support/holders.js';

const root = mkdtempSync(join(tmpdir(), 'hw-threaded-'));
afterAll(async () => {
  await killAllHolders();
  rmSync(root, { recursive: true, force: true });
});

it('scans on its thread give the in-process answers; bad input is a BadInputError; dispose ends the thread', async () => {
  const { openHolderSource, openThreadedHolderSource } = (await import(`${REPO_ROOT}dist/native/index.js`)) as typeof NativeModule;
  const watched = join(root, 'watched');
  mkdirSync(join(watched, 'cwd'), { recursive: true });
  const file = await pythonHoldingFile(join(watched, 'held.log'));
  await pythonWithCwd(join(watched, 'cwd'));
  const threaded = await openThreadedHolderSource('caller', 'linux');
  const inProcess = await openHolderSource({ walkThread: 'caller' });
  try {
    expect(threaded.platform).toBe('linux');
    const dir = await threaded.resolveWatchDir(watched);
    expect(dir).toEqual(await inProcess.resolveWatchDir(watched));
    const [viaThread, local] = [await threaded.scan({ dirs: [dir] }), await inProcess.scan({ dirs: [dir] })];
    expect(viaThread.holders.map(holderKey).sort()).toEqual(local.holders.map(holderKey).sort());
    expect(viaThread.holders.map((h) => h.kind).sort()).toEqual(['cwd', 'file']);
    expect((await threaded.processInfo(file.pid))?.pid).toBe(file.pid);
    expect(await threaded.processExtras?.(file.pid, [])).toMatchObject({ cwd: expect.any(String) });
    const bad = await threaded.resolveWatchDir(join(root, 'missing')).catch((error: Error) => error);
    expect([(bad as Error).name, (bad as Error).message]).toEqual(['BadInputError', `no such directory: ${join(root, 'missing')}`]);
  } finally {
    await inProcess.dispose();
    await threaded.dispose();
  }
  await expect(threaded.scan({ dirs: [] })).rejects.toThrow('the scan thread ended');
});

// A watch whose full scans have slowed down (nothing changed) still reports a holder that appears:
// the change feed brings the scan, not the pace. The pace here slows to an hour after one quiet scan,
// so only the feed can report within the test's time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../contract/holders.js';
import type * as WatchModule from '../../core/watch.js';
import type * as NativeModule from '../../native/index.js';
import type * as ClockModule from '../../host/system-clock.js';
import { REPO_ROOT } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile, pythonOpener, pythonWithCwd, type HolderProcess } from '../support/holders.js';

const HOUR_MS = 3_600_000;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-idle-watch-'));
});

afterEach(() => killAllHolders());

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The built modules, as the CLI runs them: the walk thread only resolves from dist. */
async function built() {
  const { Watcher } = (await import(`${REPO_ROOT}dist/core/watch.js`)) as typeof WatchModule;
  const native = (await import(`${REPO_ROOT}dist/native/index.js`)) as typeof NativeModule;
  const { systemClock } = (await import(`${REPO_ROOT}dist/host/system-clock.js`)) as typeof ClockModule;
  return { Watcher, native, systemClock };
}

/** Starts a watch on `dir` that slows to an hour between full scans; resolves once it has slowed. */
async function slowedWatch() {
  const { Watcher, native, systemClock } = await built();
  const source = await native.openHolderSource({ walkThread: 'worker' });
  const dirs = [await source.resolveWatchDir(dir)];
  const changes = await native.openChangeFeed(dirs);
  if (!changes) throw new Error('no change feed on this machine');
  const events: WatchEvent[] = [];
  const listeners = new Set<() => void>();
  let scans = 0;
  const watcher = new Watcher({
    source,
    dirs,
    clock: systemClock,
    fullIntervalMs: 20,
    slowestIntervalMs: HOUR_MS,
    paceGrowth: HOUR_MS / 20,
    changes,
    onPoll: (outcome) => {
      if (outcome.full) scans++;
      events.push(...outcome.events);
      listeners.forEach((l) => l());
    },
    onError: (error) => {
      throw error;
    },
  });
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
      check();
    });
  watcher.start();
  await until(() => scans > 0 && watcher.fullScanIntervalMs() === HOUR_MS);
  return {
    appeared: (holder: HolderProcess) => until(() => events.some((e) => e.type === 'appeared' && e.holder.pid === holder.pid)).then(() => events),
    scans: () => scans,
    dispose: async () => {
      watcher.dispose();
      changes.dispose();
      await source.dispose();
    },
  };
}

describe('an idle watch, slowed down', () => {
  it('reports a file opened under the dir by a new process', async () => {
    const watch = await slowedWatch();
    try {
      const holder = await pythonHoldingFile(join(dir, 'late.txt'));
      const events = await watch.appeared(holder);
      expect(events.find((e) => e.holder.pid === holder.pid)?.holder).toMatchObject({ kind: 'file', path: join(dir, 'late.txt') });
    } finally {
      await watch.dispose();
    }
  });

  it('reports a process started in the dir, which opens nothing there', async () => {
    const watch = await slowedWatch();
    try {
      const holder = await pythonWithCwd(dir);
      const events = await watch.appeared(holder);
      expect(events.find((e) => e.holder.pid === holder.pid)?.holder).toMatchObject({ kind: 'cwd', path: dir });
    } finally {
      await watch.dispose();
    }
  });

  it('reports a file opened under the dir by a process that was running before', async () => {
    const opener = await pythonOpener();
    const watch = await slowedWatch();
    try {
      const scansBefore = watch.scans();
      await opener.open(join(dir, 'opened-late.txt'));
      const events = await watch.appeared(opener);
      expect(events.find((e) => e.holder.pid === opener.pid)?.holder).toMatchObject({ kind: 'file', path: join(dir, 'opened-late.txt') });
      expect(watch.scans()).toBeGreaterThan(scansBefore);
    } finally {
      await watch.dispose();
    }
  });
});

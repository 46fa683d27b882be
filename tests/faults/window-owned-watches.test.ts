// An Electron window's watches die with its document (reliability-2.md F6, the desktop side): a reload,
// a crashed renderer or a closed window left the watches its page started scanning for no one. The real
// session answers through WindowPages (host/window-pages.ts, what electron/ipc-host.ts uses per window).
// Electron cannot run on this machine, so a plain EventEmitter stands in for the window's webContents
// and emits the events Electron emits, with Electron's arguments: the one stand-in in these tests.
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostSession } from '../../dist/host/session/host-session.js';
import { WindowPages } from '../../dist/host/window-pages.js';
import { scratchSession } from '../support/scratch-session.js';

let scratch: string;
let watched: string;
let session: HostSession;
/** Full scans reported per watch. */
const scans = new Map<string, number>();
/** The watches stopped in the session, by whoever. */
const stopped = new Set<string>();

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-window-watches-'));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
  session = scratchSession(scratch);
  session.onWatchStatus((watchId) => scans.set(watchId, (scans.get(watchId) ?? 0) + 1));
});

afterAll(async () => {
  await session?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

/** A window as ipc-host.ts serves it: the session, its stopWatch calls noted once done. */
function openWindow(): { contents: EventEmitter; pages: WindowPages } {
  const service = new Proxy(session, {
    get(target, property) {
      if (property === 'stopWatch') return (watchId: string) => target.stopWatch(watchId).then(() => void stopped.add(watchId));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const contents = new EventEmitter();
  return { contents, pages: new WindowPages(service, contents) };
}

const startWatch = async (pages: WindowPages): Promise<string> =>
  ((await pages.request('startWatch', { dirs: [watched], intervalMs: 100 })) as { watchId: string }).watchId;

const until = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/** Resolves once the watch was stopped; rejects when it keeps scanning `scansAllowed` more times. */
async function stopsScanning(watchId: string, scansAllowed = 30): Promise<void> {
  const limit = (scans.get(watchId) ?? 0) + scansAllowed;
  await until(() => {
    if ((scans.get(watchId) ?? 0) >= limit && !stopped.has(watchId)) throw new Error(`watch ${watchId} still scans after its page went`);
    return stopped.has(watchId);
  });
}

/** Electron's `did-start-navigation` arguments: (event, url, isInPlace, isMainFrame). */
const navigate = (contents: EventEmitter, { isInPlace, isMainFrame }: { isInPlace: boolean; isMainFrame: boolean }) =>
  contents.emit('did-start-navigation', {}, 'app://holdwatch/index.html', isInPlace, isMainFrame);

describe('watches started by a window’s page', () => {
  it('stop when it reloads; not on a fragment change or a frame’s navigation; the next page’s go on', async () => {
    const { contents, pages } = openWindow();
    const first = await startWatch(pages);
    await until(() => (scans.get(first) ?? 0) >= 1);
    navigate(contents, { isInPlace: true, isMainFrame: true });
    navigate(contents, { isInPlace: false, isMainFrame: false });
    const before = scans.get(first)!;
    await until(() => scans.get(first)! >= before + 2);
    expect(stopped.has(first)).toBe(false);

    navigate(contents, { isInPlace: false, isMainFrame: true });
    await stopsScanning(first);
    const second = await startWatch(pages);
    const atStart = scans.get(second) ?? 0;
    await until(() => (scans.get(second) ?? 0) >= atStart + 2);
    expect(stopped.has(second)).toBe(false);
    contents.emit('destroyed');
    await stopsScanning(second);
  }, 120_000);

  it('stop when the renderer crashes', async () => {
    const { contents, pages } = openWindow();
    const watchId = await startWatch(pages);
    await until(() => (scans.get(watchId) ?? 0) >= 1);
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    await stopsScanning(watchId);
  }, 120_000);

  it('a watch whose start is answered after its page went is stopped then', async () => {
    const { contents, pages } = openWindow();
    const starting = startWatch(pages);
    navigate(contents, { isInPlace: false, isMainFrame: true });
    await stopsScanning(await starting);
  }, 120_000);
});

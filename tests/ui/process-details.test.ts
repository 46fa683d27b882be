// getProcessDetails with real processes: a python3 that runs in the watched dir, writes one file
// (flocked), reads another and has a child. The session reads its cwd, tag, children, handle count,
// its holdings with access, and its place in a run started from the session.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Holder, ProcessDetails } from '../../core/api.js';
import { RecentDirs } from '../../dist/cli/ui-recent-dirs.js';
import { UiSession } from '../../dist/cli/ui-session.js';
import { killAllHolders, pythonHoldingForDetails } from '../support/holders.js';

let scratch: string;
let watched: string;
let session: UiSession;
const savedDataDir = process.env.HOLDWATCH_DATA_DIR;

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hw-details-')));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
  process.env.HOLDWATCH_DATA_DIR = join(scratch, 'data');
  session = new UiSession({ recentDirs: new RecentDirs(join(scratch, 'data', 'recent.json')), ownPids: [process.pid] });
});

afterAll(async () => {
  await session.dispose();
  await killAllHolders();
  if (savedDataDir === undefined) delete process.env.HOLDWATCH_DATA_DIR;
  else process.env.HOLDWATCH_DATA_DIR = savedDataDir;
  rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

async function until<T>(read: () => Promise<T | null | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('getProcessDetails', () => {
  it('reads cwd, the run tag, children, the handle count, and each holding with its access', async () => {
    const seen: Holder[] = [];
    const off = session.onWatchEvent((_id, event) => event.type === 'appeared' && seen.push(event.holder));
    const { watchId } = await session.startWatch({ dirs: [watched], intervalMs: 200 });
    const holder = await pythonHoldingForDetails(watched, { ...process.env, HOLDWATCH_RUN: 'tag-from-test' });
    try {
      const details = (await until(async () => {
        const d = await session.getProcessDetails(holder.pid);
        return d && d.children.length > 0 && d.holdings.length >= 3 ? d : null;
      }, 'the holder and its child'))!;
      expect(details.cwd).toBe(watched);
      expect(details.cwdUnreadableReason).toBeNull();
      expect(details.environmentTag).toBe('tag-from-test');
      expect(details.children).toEqual([expect.objectContaining({ name: 'python3' })]);
      expect(details.handleCount).toBeGreaterThan(3);
      expect(details.run).toBeNull(); // no run of this session started it

      const byPath = (name: string) => details.holdings.find((h) => h.path === join(watched, name));
      expect(byPath('written.log')).toMatchObject({ kind: 'file', access: { rights: ['write'] }, locks: ['FLOCK ADVISORY WRITE'], share: null });
      expect(byPath('written.log')!.access!.flags).toMatch(/^O_WRONLY\b/);
      expect(byPath('read.txt')).toMatchObject({ kind: 'file', access: { rights: ['read'] }, locks: [] });
      expect(byPath('read.txt')!.shareUnknownReason).toMatch(/no share modes/);
      expect(details.holdings.find((h) => h.kind === 'cwd')).toMatchObject({ path: watched, handle: null, access: null });

      // The watch's own rows carry the access too (read during the scan, not only for the panel).
      const written = await until(async () => seen.find((h) => h.pid === holder.pid && h.path.endsWith('written.log')), 'the watch row');
      expect(written.access).toMatchObject({ rights: ['write'], flags: 'O_WRONLY' }); // a scan reads the access mode only
      const read = await until(async () => seen.find((h) => h.pid === holder.pid && h.path.endsWith('read.txt')), 'the read row');
      expect(read.access).toMatchObject({ rights: ['read'], flags: 'O_RDONLY' });
    } finally {
      off();
      await session.stopWatch(watchId);
    }
  }, 30_000);

  it('names the run, the test-less spawn and the recorded chain of a process a run started', async () => {
    const script = 'import os, sys, time; f = open(os.path.join(sys.argv[1], "run.log"), "w"); print(os.getpid(), flush=True); time.sleep(30)';
    let pid = 0;
    const off = session.onRunEvent((_id, event) => {
      if (event.type === 'output' && pid === 0) pid = Number.parseInt(event.text, 10);
    });
    const { runId } = await session.startRun({ command: ['python3', '-c', script, watched], cwd: scratch, dirs: [watched] });
    try {
      const details: ProcessDetails = await until(async () => {
        if (!pid) return null;
        const d = await session.getProcessDetails(pid);
        return d?.run && d.holdings.some((h) => h.path.endsWith('run.log')) ? d : null;
      }, 'the run to know its process');
      expect(details.environmentTag).toBe(runId);
      expect(details.run).toMatchObject({ runId, byTagOnly: false, spawnedDuring: null });
      // Recorded at first sight: a python3 started through a pyenv shim was still the shim (bash) then.
      expect(details.run!.ancestry[0]).toMatchObject({ pid });
      expect(details.holdings.find((h) => h.path.endsWith('run.log'))).toMatchObject({ access: { rights: ['write'] } });
    } finally {
      off();
      await session.stopRun(runId);
    }
  }, 30_000);
});

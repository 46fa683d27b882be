// An idle check against real processes: one that stays quiet is not walked again, one that moves its
// cwd into the dir or opens a file there is; a one-shot source's walks remember nothing for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { killAllHolders, pythonOpener } from '../../tests/support/holders.js';
import { holdingsOf, walkPids, type MatchDir } from './fd-walk.js';
import { listPids } from './pid-list.js';
import { nodeProcReader, type ProcReader } from './proc-reader.js';
import { QuietProcesses } from './quiet-processes.js';
import { ScanPool } from './scan-pool.js';

let dir: string;
let dirs: MatchDir[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-quiet-'));
  dirs = [{ matchPrefix: dir, display: dir }];
});
afterEach(() => killAllHolders());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Node's reader, counting the maps files it reads: one per process walked (with an exe). */
function countingReader(): ProcReader & { mapsRead: Set<number> } {
  const mapsRead = new Set<number>();
  return {
    ...nodeProcReader,
    mapsRead,
    readFile(path, into) {
      const pid = /^\/proc\/(\d+)\/maps$/.exec(path)?.[1];
      if (pid) mapsRead.add(Number(pid));
      return nodeProcReader.readFile(path, into);
    },
  };
}

function idleWalk(quiet: QuietProcesses, reader = countingReader()) {
  const pids = listPids();
  const result = walkPids(pids, dirs, { quiet, idleCheck: true, reader, cover: pids });
  return { result, reader, rows: holdingsOf(result) };
}

describe('QuietProcesses in an idle check', () => {
  it('walks a quiet process again only once its cwd, root or fd count moved', async () => {
    const cwdMover = await pythonOpener();
    const opener = await pythonOpener();
    const still = await pythonOpener();
    const quiet = new QuietProcesses();
    const first = idleWalk(quiet);
    expect(first.reader.mapsRead.has(still.pid)).toBe(true);
    expect(quiet.size).toBeGreaterThan(0);

    const second = idleWalk(quiet);
    expect(second.reader.mapsRead.has(still.pid)).toBe(false);

    await cwdMover.chdir(dir);
    await opener.open(join(dir, 'held.txt'));
    const third = idleWalk(quiet);
    expect(third.reader.mapsRead.has(still.pid)).toBe(false);
    expect(third.rows.filter((r) => r.pid === cwdMover.pid).map((r) => [r.kind, r.path])).toEqual([['cwd', dir]]);
    expect(third.rows.filter((r) => r.pid === opener.pid).map((r) => [r.kind, r.path])).toEqual([['file', join(dir, 'held.txt')]]);
  });

  it('a thorough walk of the whole system remembers the quiet processes, so the idle check after it skips them; a focus walk does not', async () => {
    const still = await pythonOpener();
    const quiet = new QuietProcesses();
    walkPids([still.pid], dirs, { quiet, reader: nodeProcReader });
    expect(quiet.isStillQuiet(still.pid, nodeProcReader)).toBe(false);
    const pids = listPids();
    walkPids(pids, dirs, { quiet, reader: nodeProcReader, cover: pids });
    expect(quiet.isStillQuiet(still.pid, nodeProcReader)).toBe(true);
    expect(idleWalk(quiet).reader.mapsRead.has(still.pid)).toBe(false);
  });

  it('forgets a process that came to hold something, and every process when the dirs change', async () => {
    const opener = await pythonOpener();
    const quiet = new QuietProcesses();
    idleWalk(quiet);
    await opener.open(join(dir, 'other.txt'));
    idleWalk(quiet);
    expect(quiet.isStillQuiet(opener.pid, nodeProcReader)).toBe(false);
    quiet.useDirs([{ matchPrefix: join(dir, 'elsewhere'), display: 'elsewhere' }]);
    expect(quiet.size).toBe(0);
  });

  it('is remembered by a pool for its idle check by default, and not by a pool told to remember nothing', async () => {
    const still = await pythonOpener();
    // The fds an idle check counts after a thorough walk of the one process: none once it is remembered.
    const fdsSeenByIdleCheck = async (pool: ScanPool) => {
      await pool.walk([still.pid], dirs, true);
      return (await pool.walk([still.pid], dirs, true, true)).handleCount;
    };
    const poller = new ScanPool('caller');
    const once = new ScanPool('caller', { remember: false });
    try {
      expect(await fdsSeenByIdleCheck(poller)).toBe(0);
      expect(await fdsSeenByIdleCheck(once)).toBeGreaterThan(0);
    } finally {
      await poller.dispose();
      await once.dispose();
    }
  });
});

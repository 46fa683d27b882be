// Re-checks of unproven names off the poll's path, with the real NameCache and a fake worker: what is
// asked, in what chunks, and what a same or a different answer does to the cache.
import { describe, expect, it } from 'vitest';
import { BackgroundRechecks, earliestRecheckMs, RECHECK_CHUNK, RECHECK_PICK_MS, type DueProcess } from './background-rechecks.js';
import type { HandleEntry } from './handle-table.js';
import { NameCache, SYSTEM_RECHECK, type CachedName, type RecheckPolicy } from './name-cache.js';
import type { NameOutcome } from './name-worker-client.js';

const TEMP = '\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\';
const named = (name: string, extra: object = {}): NameOutcome => ({
  kind: 'named',
  answer: { type: 'named', id: 1, index: 0, name, directory: false, deletePending: false, ...extra },
});
const entry = (pid: number, handle: number, object = 0n, access = 0x120089): HandleEntry => ({
  pid,
  handle: BigInt(handle),
  object,
  grantedAccess: access,
  typeIndex: 37,
});

/** `count` rows of `pid` named at time 0 (`nameOf(k)`), as a system scan leaves them. */
function namedProcess(cache: NameCache, pid: number, count: number, nameOf = (k: number) => `${TEMP}f${k}`, object = 0n): DueProcess {
  cache.beginScan();
  const names: CachedName[] = [];
  for (let k = 0; k < count; k++) names.push(cache.store(entry(pid, 4 * (k + 1), object), named(nameOf(k)), 0));
  cache.endScan([pid]);
  return { pid, names, entryAt: (k) => entry(pid, 4 * (k + 1), object) };
}

/** A worker that answers from `truth` (pid:handle -> name), remembering each chunk it was asked. */
function fakeWorker(truth: (e: HandleEntry) => NameOutcome) {
  const chunks: HandleEntry[][] = [];
  let release: (() => void) | null = null;
  let hold = false;
  return {
    chunks,
    holdNext: () => (hold = true),
    release: () => release?.(),
    ask: async (entries: readonly HandleEntry[]): Promise<NameOutcome[]> => {
      chunks.push([...entries]);
      if (hold) {
        hold = false;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return entries.map(truth);
    },
  };
}

const DUE_MS = 10_000; // past every disk name's re-check time (5 s at most)

describe('BackgroundRechecks', () => {
  it('asks the due names of an unchanged process in chunks; the same answers prove them again and change nothing', async () => {
    const cache = new NameCache();
    const holder = namedProcess(cache, 40, 250);
    const worker = fakeWorker((e) => named(`${TEMP}f${Number(e.handle) / 4 - 1}`));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    expect(earliestRecheckMs(holder.names, 40, SYSTEM_RECHECK)).toBeLessThanOrEqual(5000);
    rechecks.start([holder], DUE_MS);
    await rechecks.idle();
    expect(worker.chunks.map((c) => c.length)).toEqual([RECHECK_CHUNK, RECHECK_CHUNK, 50]);
    expect(rechecks.takeAsked()).toBe(250);
    expect([...rechecks.takeChanged()]).toEqual([]);
    // The very same cache entries, proven at the time they were asked: not due again for a period.
    expect(holder.names.every((n, k) => cache.peek(entry(40, 4 * (k + 1))) === n && n?.provenAtMs === DUE_MS)).toBe(true);
    expect(earliestRecheckMs(holder.names, 40, SYSTEM_RECHECK)).toBeGreaterThan(DUE_MS);
  });

  it('close A, open B under the same value (same row in the table): B is stored and its process reported changed', async () => {
    const cache = new NameCache();
    const holder = namedProcess(cache, 40, 3, (k) => `${TEMP}${k === 1 ? 'a.db' : `f${k}`}`);
    const worker = fakeWorker((e) => named(e.handle === 8n ? `${TEMP}b.db` : `${TEMP}f${Number(e.handle) / 4 - 1}`));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    rechecks.start([holder], DUE_MS);
    await rechecks.idle();
    expect([...rechecks.takeChanged()]).toEqual([40]);
    expect([...rechecks.takeChanged()]).toEqual([]); // taken once
    const now = cache.peek(entry(40, 8))!;
    expect(now).not.toBe(holder.names[1]);
    expect(now.outcome).toMatchObject({ kind: 'named', answer: { name: `${TEMP}b.db` } });
  });

  it('picks at most maxPerScan names, none while a pick is being asked, names with an address never, hang-prone masks last', async () => {
    const cache = new NameCache();
    const policy: RecheckPolicy = { ...SYSTEM_RECHECK, maxPerScan: 150 };
    const unproven = namedProcess(cache, 40, 200);
    const proven = namedProcess(cache, 44, 50, undefined, 0xffffa000n);
    const pipe = cache.store(entry(48, 4, 0n, 0x0012019f), named(`${TEMP}p`), 0);
    const worker = fakeWorker((e) => named(e.pid === 48 ? `${TEMP}p` : `${TEMP}f${Number(e.handle) / 4 - 1}`));
    const rechecks = new BackgroundRechecks(cache, policy, worker.ask, () => DUE_MS);
    expect(earliestRecheckMs(proven.names, 44, policy)).toBe(Infinity);
    worker.holdNext();
    const pipeProcess: DueProcess = { pid: 48, names: [pipe], entryAt: () => entry(48, 4, 0n, 0x0012019f) };
    rechecks.start([pipeProcess, proven, unproven], DUE_MS);
    expect(rechecks.busy(DUE_MS + RECHECK_PICK_MS)).toBe(true);
    rechecks.start([unproven], DUE_MS + RECHECK_PICK_MS); // ignored: the first pick is still being asked
    worker.release();
    await rechecks.idle();
    const asked = worker.chunks.flat();
    expect(asked.length).toBe(150);
    expect(asked.some((e) => e.pid === 44)).toBe(false);
    expect(asked.at(-1)).toMatchObject({ pid: 48 });
    expect(asked.filter((e) => e.pid === 40).length).toBe(149);
  });

  it('drops an answer for a name examined again meanwhile, and leaves a name the worker never reached due', async () => {
    const cache = new NameCache();
    const holder = namedProcess(cache, 40, 2);
    const notAsked: NameOutcome = { kind: 'unnamed', reason: 'scan passed its naming deadline', stalled: false };
    const worker = fakeWorker((e) => (e.handle === 4n ? named(`${TEMP}other`) : notAsked));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    worker.holdNext();
    rechecks.start([holder], DUE_MS);
    // A scan re-examined handle 4 while the chunk was out: its newer entry stays.
    cache.beginScan();
    const newer = cache.store(entry(40, 4), named(`${TEMP}f0`), DUE_MS);
    worker.release();
    await rechecks.idle();
    expect(cache.peek(entry(40, 4))).toBe(newer);
    expect([...rechecks.takeChanged()]).toEqual([]);
    expect(rechecks.takeAsked()).toBe(0);
    expect(holder.names[1]!.provenAtMs).toBe(0); // still due
  });

  it('dispose stops after the chunk being asked', async () => {
    const cache = new NameCache();
    const holder = namedProcess(cache, 40, 250);
    const worker = fakeWorker((e) => named(`${TEMP}f${Number(e.handle) / 4 - 1}`));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    worker.holdNext();
    rechecks.start([holder], DUE_MS);
    const disposed = rechecks.dispose();
    worker.release();
    await disposed;
    expect(worker.chunks.length).toBe(1);
    rechecks.start([holder], DUE_MS + RECHECK_PICK_MS);
    expect(worker.chunks.length).toBe(1);
  });

  it('makes one pick per RECHECK_PICK_MS however often scans come: the names past the first pick wait for the next', async () => {
    const cache = new NameCache();
    const policy: RecheckPolicy = { ...SYSTEM_RECHECK, maxPerScan: 100 };
    const holder = namedProcess(cache, 40, 300);
    const worker = fakeWorker((e) => named(`${TEMP}f${Number(e.handle) / 4 - 1}`));
    const rechecks = new BackgroundRechecks(cache, policy, worker.ask, () => DUE_MS);
    for (const at of [0, 1, 2, RECHECK_PICK_MS - 1]) {
      rechecks.start([holder], DUE_MS + at);
      await rechecks.idle();
    }
    expect(worker.chunks.flat().length).toBe(100);
    expect(rechecks.busy(DUE_MS + RECHECK_PICK_MS)).toBe(false);
    rechecks.start([holder], DUE_MS + RECHECK_PICK_MS);
    await rechecks.idle();
    expect(worker.chunks.flat().length).toBe(200);
  });
});

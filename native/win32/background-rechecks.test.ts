// Re-checks of unproven names off the poll's path, with the real NameCache and a fake worker: what is
// asked, in what chunks, and what a same or a different answer does to the cache.
import { describe, expect, it } from 'vitest';
import { BackgroundRechecks, HUNG_RECHECKS_PER_WINDOW, RECHECK_CHUNK, RECHECK_PICK_MS } from './background-rechecks.js';
import type { HandleEntry } from './handle-table.js';
import { NameCache, recheckAtMs, SYSTEM_RECHECK, type CachedName } from './name-cache.js';
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

/** `count` rows of `pid` named at time 0 (`nameOf(k)`), as a system scan leaves them, queued in `rechecks`. */
function namedProcess(cache: NameCache, rechecks: BackgroundRechecks, pid: number, count: number, nameOf = (k: number) => `${TEMP}f${k}`, object = 0n) {
  cache.beginScan();
  const names: CachedName[] = [];
  for (let k = 0; k < count; k++) {
    const row = entry(pid, 4 * (k + 1), object);
    names.push(cache.store(row, named(nameOf(k)), 0));
    rechecks.track(row, names[k]!);
  }
  cache.endScan([pid]);
  return names;
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

const fileName = (e: HandleEntry) => named(`${TEMP}f${Number(e.handle) / 4 - 1}`);

describe('BackgroundRechecks', () => {
  it('asks the due names in chunks; the same answers prove them again, queued for their next time, and change nothing', async () => {
    const cache = new NameCache();
    const worker = fakeWorker(fileName);
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    const names = namedProcess(cache, rechecks, 40, 250);
    expect(recheckAtMs(names[0]!, 40, SYSTEM_RECHECK)).toBeLessThanOrEqual(5000);
    rechecks.start(DUE_MS);
    await rechecks.idle();
    expect(worker.chunks.map((c) => c.length)).toEqual([RECHECK_CHUNK, RECHECK_CHUNK, 50]);
    expect(rechecks.takeAsked()).toBe(250);
    expect([...rechecks.takeChanged()]).toEqual([]);
    // The very same cache entries, proven at the time they were asked: not due again for a period.
    expect(names.every((n, k) => cache.peek(entry(40, 4 * (k + 1))) === n && n.provenAtMs === DUE_MS)).toBe(true);
    expect(rechecks.queued).toBe(250);
    rechecks.start(DUE_MS + RECHECK_PICK_MS);
    await rechecks.idle();
    expect(worker.chunks.length).toBe(3);
  });

  it('close A, open B under the same value (same row in the table): B is stored and its process reported changed', async () => {
    const cache = new NameCache();
    const worker = fakeWorker((e) => (e.handle === 8n ? named(`${TEMP}b.db`) : fileName(e)));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    const names = namedProcess(cache, rechecks, 40, 3, (k) => `${TEMP}${k === 1 ? 'a.db' : `f${k}`}`);
    rechecks.start(DUE_MS);
    await rechecks.idle();
    expect([...rechecks.takeChanged()]).toEqual([40]);
    expect([...rechecks.takeChanged()]).toEqual([]); // taken once
    const now = cache.peek(entry(40, 8))!;
    expect(now).not.toBe(names[1]);
    expect(now.outcome).toMatchObject({ kind: 'named', answer: { name: `${TEMP}b.db` } });
    expect(rechecks.queued).toBe(3); // B waits for its own re-check
  });

  it('picks at most its maximum, none while a pick is being asked, names with an address never, hang-prone masks last', async () => {
    const cache = new NameCache();
    const worker = fakeWorker((e) => named(e.pid === 48 ? `${TEMP}p` : `${TEMP}f${Number(e.handle) / 4 - 1}`));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS, 150);
    const pipeRow = entry(48, 4, 0n, 0x0012019f);
    rechecks.track(pipeRow, cache.store(pipeRow, named(`${TEMP}p`), 0));
    namedProcess(cache, rechecks, 44, 50, undefined, 0xffffa000n);
    namedProcess(cache, rechecks, 40, 200);
    expect(rechecks.queued).toBe(201);
    worker.holdNext();
    rechecks.start(DUE_MS);
    expect(rechecks.busy(DUE_MS + RECHECK_PICK_MS)).toBe(true);
    rechecks.start(DUE_MS + RECHECK_PICK_MS); // ignored: the first pick is still being asked
    worker.release();
    await rechecks.idle();
    const asked = worker.chunks.flat();
    expect(asked.length).toBe(150);
    expect(asked.some((e) => e.pid === 44)).toBe(false);
    expect(asked.at(-1)).toMatchObject({ pid: 48 });
    expect(asked.filter((e) => e.pid === 40).length).toBe(149);
  });

  it("one process always behind on its re-checks takes no other process's turn: a reused value elsewhere is asked within its period", async () => {
    const cache = new NameCache();
    const truth = new Map<bigint, string>();
    const worker = fakeWorker((e) => (e.pid === 40 ? named(truth.get(e.handle) ?? `${TEMP}a.db`) : fileName(e)));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => nowMs, 100);
    let nowMs = 0;
    // Listed first, and with far more names than 100 a pick can re-check within a period.
    namedProcess(cache, rechecks, 8, 3000);
    const [a] = namedProcess(cache, rechecks, 40, 1, () => `${TEMP}a.db`);
    truth.set(4n, `${TEMP}b.db`); // the test closed a.db and opened b.db under the same value
    const period = recheckAtMs(a!, 40, SYSTEM_RECHECK);
    let shownAtMs = -1;
    for (nowMs = 0; nowMs <= 30_000 && shownAtMs < 0; nowMs += 100) {
      rechecks.start(nowMs);
      await rechecks.idle();
      if (rechecks.takeChanged().has(40)) shownAtMs = nowMs;
    }
    expect(shownAtMs).toBeGreaterThanOrEqual(period);
    expect(shownAtMs).toBeLessThan(period + RECHECK_PICK_MS);
  });

  it('asks an unchanged name once a period over many polls, never at every poll', async () => {
    const cache = new NameCache();
    const worker = fakeWorker(fileName);
    let nowMs = 0;
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => nowMs);
    const [first] = namedProcess(cache, rechecks, 40, 20);
    const period = recheckAtMs(first!, 40, SYSTEM_RECHECK);
    for (nowMs = 0; nowMs < 20_000; nowMs += 100) {
      rechecks.start(nowMs);
      await rechecks.idle();
    }
    // 200 polls of 20 names: 4,000 if each poll asked them, one per period and name here.
    const perName = Math.floor(20_000 / period);
    expect(worker.chunks.flat().length).toBeGreaterThanOrEqual(20 * (perName - 1));
    expect(worker.chunks.flat().length).toBeLessThanOrEqual(20 * perName);
  });

  it('drops an answer for a name examined again meanwhile, and a name the worker never reached is picked again', async () => {
    const cache = new NameCache();
    const notAsked: NameOutcome = { kind: 'unnamed', reason: 'scan passed its naming deadline', stalled: false };
    const worker = fakeWorker((e) => (e.handle === 4n ? named(`${TEMP}other`) : notAsked));
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    const names = namedProcess(cache, rechecks, 40, 2);
    worker.holdNext();
    rechecks.start(DUE_MS);
    // A scan re-examined handle 4 while the chunk was out: its newer entry stays.
    cache.beginScan();
    const newer = cache.store(entry(40, 4), named(`${TEMP}f0`), DUE_MS);
    worker.release();
    await rechecks.idle();
    expect(cache.peek(entry(40, 4))).toBe(newer);
    expect([...rechecks.takeChanged()]).toEqual([]);
    expect(rechecks.takeAsked()).toBe(0);
    expect(names[1]!.provenAtMs).toBe(0); // still due
    rechecks.start(DUE_MS + RECHECK_PICK_MS);
    await rechecks.idle();
    expect(worker.chunks.at(-1)!.map((e) => e.handle)).toEqual([8n]);
  });

  it('a name a focus scan replaced is queued in place of the old one', async () => {
    const cache = new NameCache();
    const worker = fakeWorker(fileName);
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    const [old] = namedProcess(cache, rechecks, 40, 1);
    cache.beginScan();
    const replaced = cache.store(entry(40, 4), named(`${TEMP}f0`), 1000); // not tracked by the focus scan
    rechecks.start(recheckAtMs(old!, 40, SYSTEM_RECHECK)); // the old entry's time: dropped, the new one queued for its own
    await rechecks.idle();
    expect(worker.chunks).toEqual([]);
    rechecks.start(recheckAtMs(replaced, 40, SYSTEM_RECHECK));
    await rechecks.idle();
    expect(worker.chunks.flat().map((e) => e.handle)).toEqual([4n]);
  });

  it('dispose stops after the chunk being asked', async () => {
    const cache = new NameCache();
    const worker = fakeWorker(fileName);
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS);
    namedProcess(cache, rechecks, 40, 250);
    worker.holdNext();
    rechecks.start(DUE_MS);
    const disposed = rechecks.dispose();
    worker.release();
    await disposed;
    expect(worker.chunks.length).toBe(1);
    rechecks.start(DUE_MS + RECHECK_PICK_MS);
    expect(worker.chunks.length).toBe(1);
  });

  it('makes one pick per RECHECK_PICK_MS however often scans come: the names past the first pick wait for the next', async () => {
    const cache = new NameCache();
    const worker = fakeWorker(fileName);
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => DUE_MS, 100);
    namedProcess(cache, rechecks, 40, 300);
    for (const at of [0, 1, 2, RECHECK_PICK_MS - 1]) {
      rechecks.start(DUE_MS + at);
      await rechecks.idle();
    }
    expect(worker.chunks.flat().length).toBe(100);
    expect(rechecks.busy(DUE_MS + RECHECK_PICK_MS)).toBe(false);
    rechecks.start(DUE_MS + RECHECK_PICK_MS);
    await rechecks.idle();
    expect(worker.chunks.flat().length).toBe(200);
  });

  it('forgets the names of a process that left', () => {
    const cache = new NameCache();
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, fakeWorker(fileName).ask);
    namedProcess(cache, rechecks, 40, 5);
    namedProcess(cache, rechecks, 44, 3);
    rechecks.forget(40);
    expect(rechecks.queued).toBe(3);
  });
});

describe('BackgroundRechecks when more is due than it can ask (24H2 as a standard user)', () => {
  const PIPE_ACCESS = 0x0012019f;
  const hungOutcome: NameOutcome = { kind: 'unnamed', reason: "name query passed the worker's 200 ms deadline", stalled: true };

  it('asks handles that hung less and less often, a bounded number a minute, and still proves every other name', async () => {
    const cache = new NameCache();
    const clock = { ms: 0 };
    const askedAt = new Map<bigint, number[]>();
    const worker = fakeWorker((e) => {
      if (e.pid === 40) return fileName(e);
      askedAt.set(e.handle, [...(askedAt.get(e.handle) ?? []), clock.ms]);
      return hungOutcome;
    });
    const rechecks = new BackgroundRechecks(cache, SYSTEM_RECHECK, worker.ask, () => clock.ms, 100);
    cache.beginScan();
    for (let k = 0; k < 40; k++) {
      const row = entry(36, 4 * (k + 1), 0n, PIPE_ACCESS);
      rechecks.track(row, cache.store(row, hungOutcome, 0));
    }
    cache.endScan([36]);
    const healthy = namedProcess(cache, rechecks, 40, 3000);
    const minutes = 10;
    for (; clock.ms <= minutes * 60_000; clock.ms += RECHECK_PICK_MS) {
      rechecks.start(clock.ms);
      await rechecks.idle();
    }
    const hangs = [...askedAt.values()].flat().length;
    // Each hang holds a worker thread until 15 retire it: a bounded number a minute, not one per handle per period.
    expect(hangs).toBeLessThanOrEqual(HUNG_RECHECKS_PER_WINDOW * (minutes + 1));
    expect(askedAt.size).toBe(40); // none is given up on
    for (const times of askedAt.values()) {
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(gaps).toEqual([...gaps].sort((a, b) => a - b)); // backing off
    }
    expect(healthy.every((n, k) => cache.peek(entry(40, 4 * (k + 1))) === n && n.provenAtMs > 0)).toBe(true);
  });
});

// The name cache across the two kinds of scan a run makes on Windows: full scans read the system table
// (object addresses known, except on 24H2 without SeDebugPrivilege), focus scans each process's own
// table (class 51: object 0), and Windows hands a closed handle's value to the next open (LIFO).
import { describe, expect, it } from 'vitest';
import type { HandleEntry } from './handle-table.js';
import { FOCUS_RECHECK, NameCache, recheckAtMs, SYSTEM_RECHECK, type RecheckPolicy } from './name-cache.js';
import type { NameOutcome } from './name-worker-client.js';

const row = (object: bigint, handle = 0x44n, access = 0x12019f): HandleEntry => ({ pid: 10, object, handle, grantedAccess: access, typeIndex: 37 });
const named = (name: string): NameOutcome => ({ kind: 'named', answer: { type: 'named', id: 1, index: 0, name, directory: false, deletePending: false } });
const stalled: NameOutcome = { kind: 'unnamed', reason: 'name query passed its deadline', stalled: true };
const TEMP = '\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\';
/** A policy that trusts unproven names for ever: what the cache did before LIFO reuse was taken into account. */
const TRUSTING: RecheckPolicy = { diskMs: Infinity, otherMs: Infinity, stalledMs: Infinity, maxPerScan: 0 };

/**
 * One scan of `rows` at `nowMs`: the cached ones found, the rest stored as `fresh` (what the worker
 * would answer now). Returns each row's name as the scan reports it.
 */
function scanAt(cache: NameCache, rows: HandleEntry[], nowMs: number, policy: RecheckPolicy, fresh: NameOutcome): (string | null)[] {
  cache.beginScan();
  const out = rows.map((r) => {
    const outcome = (cache.lookup(r, nowMs, policy) ?? cache.store(r, fresh, nowMs)).outcome;
    return outcome.kind === 'named' ? outcome.answer.name : null;
  });
  cache.endScan([10]);
  return out;
}

/** One scan: returns how many rows had to be named (each a worker duplication of the handle). */
function scan(cache: NameCache, rows: HandleEntry[], nowMs = 0, policy: RecheckPolicy = SYSTEM_RECHECK, name = 'new'): number {
  cache.beginScan();
  let asked = 0;
  for (const r of rows) {
    if (cache.lookup(r, nowMs, policy)) continue;
    asked++;
    cache.store(r, named(name), nowMs);
  }
  cache.endScan([10]);
  return asked;
}

describe('NameCache', () => {
  it("keeps a handle's name across focus scans (object 0) and full scans (its address): named once", () => {
    const cache = new NameCache();
    expect(scan(cache, [row(0xffffa000n)])).toBe(1); // full
    expect(scan(cache, [row(0n)], 50, FOCUS_RECHECK)).toBe(0); // focus (not a disk name: re-checked within a second)
    expect(scan(cache, [row(0xffffa000n)])).toBe(0); // full again
    const first = new NameCache();
    expect(scan(first, [row(0n)], 0, FOCUS_RECHECK)).toBe(1); // focus first
    expect(scan(first, [row(0xffffa000n)])).toBe(0); // the address is learnt...
    expect(scan(first, [row(0xffffb000n)])).toBe(1); // ...and another object under that value is another file
  });

  it('names again a handle value reused for another object, or with other rights', () => {
    const cache = new NameCache();
    scan(cache, [row(0xffffa000n)]);
    expect(scan(cache, [row(0xffffc000n)])).toBe(1);
    expect(scan(cache, [row(0xffffc000n, 0x44n, 0x120089)])).toBe(1);
  });

  it('focus scans never duplicate an unchanged disk row again: 50 scans, 10 a second, ask the worker once', () => {
    const cache = new NameCache();
    const asked = Array.from({ length: 50 }, (_, i) => scan(cache, [row(0n, 0x44n), row(0n, 0x48n, 0x120089)], i * 100, FOCUS_RECHECK, `${TEMP}a.db`));
    expect(asked[0]).toBe(2);
    expect(asked.slice(1)).toEqual(Array.from({ length: 49 }, () => 0));
    // The same row in a new process (pid reuse drops the pid's names), or with other rights, is asked.
    cache.forgetProcess(10);
    expect(scan(cache, [row(0n, 0x44n)], 5000, FOCUS_RECHECK, `${TEMP}a.db`)).toBe(1);
    expect(scan(cache, [row(0n, 0x44n, 0x120089)], 5100, FOCUS_RECHECK, `${TEMP}a.db`)).toBe(1);
  });

  it('a value that changed hands between the table read and the query is cached under the rights the worker duplicated', () => {
    // The share-mode-0 lock file (0x12019f) and a short-lived handle (0x120089) take turns at one value.
    const LOCK = `${TEMP}cache.lock`;
    const lock = row(0n, 0x44n, 0x12019f);
    const brief = row(0n, 0x44n, 0x120089);
    const answered = (name: string, access: number): NameOutcome => ({
      kind: 'named',
      answer: { type: 'named', id: 1, index: 0, name, access, directory: false, deletePending: false },
    });
    // Read while the brief handle held the value, named once the lock file did: the focus scans that
    // follow see the lock file's row and never duplicate it again.
    const cache = new NameCache();
    cache.beginScan();
    cache.storeAnswer(brief, answered(LOCK, lock.grantedAccess), 0);
    cache.endScan([10]);
    expect(Array.from({ length: 50 }, (_, i) => scan(cache, [lock], 100 + i * 100, FOCUS_RECHECK, 'asked again'))).toEqual(Array.from({ length: 50 }, () => 0));
    expect(scanAt(cache, [lock], 6000, FOCUS_RECHECK, named('asked again'))).toEqual([LOCK]);
    // Read while the lock file held the value, named once the brief handle did: the lock file's row is
    // asked again, not given the brief handle's name for as long as it is held.
    const other = new NameCache();
    other.beginScan();
    other.storeAnswer(lock, answered(`${TEMP}brief.tmp`, brief.grantedAccess), 0);
    other.endScan([10]);
    expect(scanAt(other, [lock], 100, FOCUS_RECHECK, named(LOCK))).toEqual([LOCK]);
  });

  it('close A, open B under the same value, no address: focus and system scans keep A (no duplicate); the background re-check names B', () => {
    const cache = new NameCache();
    expect(scanAt(cache, [row(0n)], 0, FOCUS_RECHECK, named(`${TEMP}a.db`))).toEqual([`${TEMP}a.db`]);
    // The test closed a.db and opened b.db: same value, same rights; the worker would now say b.db.
    expect(scanAt(cache, [row(0n)], 100, FOCUS_RECHECK, named(`${TEMP}b.db`))).toEqual([`${TEMP}a.db`]);
    // A system scan asks nothing again itself: its due names are the background's (background-rechecks.test.ts).
    expect(scanAt(cache, [row(0n)], 5000, SYSTEM_RECHECK, named(`${TEMP}b.db`))).toEqual([`${TEMP}a.db`]);
    // Trusting the value alone everywhere kept a.db for ever:
    const trusting = new NameCache();
    scanAt(trusting, [row(0n)], 0, TRUSTING, named(`${TEMP}a.db`));
    expect(scanAt(trusting, [row(0n)], 5000, TRUSTING, named(`${TEMP}b.db`))).toEqual([`${TEMP}a.db`]);
  });

  it('24H2 without SeDebugPrivilege (no address in the system table): a disk name is re-checked within 5 s, a pipe within 15 s', () => {
    const cache = new NameCache();
    const file = row(0n, 0x44n);
    const pipe = row(0n, 0x48n);
    cache.beginScan();
    cache.store(file, named(`${TEMP}a.db`), 0);
    cache.store(pipe, named('\\Device\\NamedPipe\\uv\\1'), 0);
    cache.endScan([10]);
    const fileAt = recheckAtMs(cache.peek(file)!, 10, SYSTEM_RECHECK);
    const pipeAt = recheckAtMs(cache.peek(pipe)!, 10, SYSTEM_RECHECK);
    expect(fileAt).toBeGreaterThan(2000); // trusted for a while: a busy machine has 100,000 handles
    expect(fileAt).toBeLessThanOrEqual(5000);
    expect(pipeAt).toBeGreaterThan(5000);
    expect(pipeAt).toBeLessThanOrEqual(15_000);
  });

  it('a stalled handle is asked again only after 10 s in focus (asking hangs again), so a reused value gets its name then', () => {
    const cache = new NameCache();
    scanAt(cache, [row(0n)], 0, FOCUS_RECHECK, stalled);
    expect(scanAt(cache, [row(0n)], 1000, FOCUS_RECHECK, named(`${TEMP}b.db`))).toEqual([null]);
    expect(scanAt(cache, [row(0n)], 10_000, FOCUS_RECHECK, named(`${TEMP}b.db`))).toEqual([`${TEMP}b.db`]);
  });

  it('a match on a known address proves the name again; without one, a system scan re-checks it', () => {
    const cache = new NameCache();
    expect(scanAt(cache, [row(0xffffa000n)], 0, SYSTEM_RECHECK, named(`${TEMP}a.db`))).toEqual([`${TEMP}a.db`]);
    // Proven by its address, however old: the worker's answer (b.db) is not asked for.
    expect(scanAt(cache, [row(0xffffa000n)], 60_000, SYSTEM_RECHECK, named(`${TEMP}b.db`))).toEqual([`${TEMP}a.db`]);
    // The focus scan's row has no address: a disk name, unproven, but asked only by a system scan.
    expect(scanAt(cache, [row(0n)], 60_001, FOCUS_RECHECK, named(`${TEMP}b.db`))).toEqual([`${TEMP}a.db`]);
    expect(recheckAtMs(cache.peek(row(0n))!, 10, SYSTEM_RECHECK)).toBeLessThanOrEqual(65_001); // due: the background asks it
  });

  it('re-checks at most maxPerScan names a scan: a table of unproven names is re-checked over several scans, not all in one', () => {
    const cache = new NameCache();
    const policy: RecheckPolicy = { ...SYSTEM_RECHECK, maxPerScan: 500 };
    const rows = Array.from({ length: 1200 }, (_, i) => row(0n, BigInt(0x4 + 4 * i)));
    expect(scanAt(cache, rows, 0, SYSTEM_RECHECK, named(`${TEMP}a.db`)).length).toBe(1200);
    const asked = (nowMs: number) => {
      cache.beginScan();
      let n = 0;
      for (const r of rows) {
        if (cache.lookup(r, nowMs, policy)) continue;
        n++;
        cache.store(r, named(`${TEMP}a.db`), nowMs);
      }
      cache.endScan([10]);
      return n;
    };
    expect([asked(6000), asked(6100), asked(6200), asked(6300)]).toEqual([500, 500, 200, 0]);
  });

  it('a system scan of a changed process asks only its new handles, however many of its names are due', () => {
    const cache = new NameCache();
    const rows = Array.from({ length: 1200 }, (_, i) => row(0n, BigInt(0x4 + 4 * i)));
    expect(scan(cache, rows, 0)).toBe(1200);
    expect(scan(cache, [...rows, row(0n, 0x10000n)], 60_000)).toBe(1);
  });

  it("a process's names come due together, processes apart: an unchanged process is walked again once a period", () => {
    const cache = new NameCache();
    cache.beginScan();
    const a = cache.store(row(0n, 0x44n), named(`${TEMP}a.db`), 0);
    const b = cache.store(row(0n, 0x1f8n), named(`${TEMP}b.db`), 0);
    cache.endScan([10]);
    expect(recheckAtMs(a, 10, SYSTEM_RECHECK)).toBe(recheckAtMs(b, 10, SYSTEM_RECHECK));
    expect(recheckAtMs(a, 10, SYSTEM_RECHECK)).not.toBe(recheckAtMs(a, 4242, SYSTEM_RECHECK));
  });
});

// Names already known, per process, keyed by handle value and checked against the object address
// and granted access: a steady-state poll names only new handles.
//
// Windows reuses handle values LIFO: "close A, open B" gives B the value A had. Only the object
// address tells the two apart, and it is often not known (0): a process's own table (class 51, the
// focus scans) has none, nor has Wine, nor Windows 11 24H2's system table without SeDebugPrivilege.
// So 0 is "not known", never "another object": compared as different, focus and full scans evicted
// each other's names and the test tree was named ~10 times a second. But a name matched without an
// address is unproven, and trusted only for a while (RecheckPolicy): a test that closes one temp file
// and opens the next would otherwise be shown holding the first. An address learnt later is kept, and
// a match on it proves the name again.
// Except in focus scans, for disk files: asking means duplicating the test's handle, and while the
// copy exists the test's CloseHandle is not the last close, so the share access stays and its
// `close(); os.remove()` fails with a sharing violation holdwatch caused. A focus row seen in every
// scan since it was named, with the same value, rights and process, is never asked again, by the system
// scans between focus scans either; a known address still catches a reused value, and the system
// scans' re-checks (SYSTEM_RECHECK) catch it in every other process.
// Process identity is not part of the key: ProcessIdentities guarantees a pid still in the table is
// the same process, and the holder source drops a pid's names when it drops the pid.
import type { HandleEntry } from './handle-table.js';
import type { NameOutcome } from './name-worker-client.js';
import { isDiskName } from './disk-names.js';

/**
 * How long a name matched without an object address is trusted, since it was last proven (named, or
 * matched on its address). Disk names are cheap and safe to ask again (a disk file's query does not
 * hang); a pipe's or console's may hang, a stalled one did: those are asked less often.
 */
export interface RecheckPolicy {
  diskMs: number;
  otherMs: number;
  stalledMs: number;
  /**
   * Re-checks one scan may make; past it, names due are trusted until a later scan. A table of
   * 100,000 handles without addresses would otherwise be named again every few seconds, every scan
   * spending its whole naming budget on it.
   */
  maxPerScan: number;
}

/**
 * The test tree's processes: their tables never carry addresses, and their disk files are the ones a
 * teardown deletes right after closing them, so an unchanged disk row is never duplicated again.
 */
export const FOCUS_RECHECK: RecheckPolicy = { diskMs: Infinity, otherMs: 1000, stalledMs: 10_000, maxPerScan: 2000 };
/**
 * Every process, where the table has no addresses (24H2 without SeDebugPrivilege, Wine). A system scan
 * re-checks nothing itself: its names wait in the background re-checks' due list (background-rechecks.ts).
 */
export const SYSTEM_RECHECK: RecheckPolicy = { diskMs: 5000, otherMs: 15_000, stalledMs: 30_000, maxPerScan: 0 };

/** A failed name query other than access denied (a process exiting mid-query) is asked again after this. */
export const NAME_RETRY_MS = 2000;

/**
 * A handle whose query hung again waits twice as long before the next ask, up to 2^this periods: a
 * pipe with a read pending hangs every time, and each hang holds a worker's thread until it retires.
 */
export const MAX_HANG_DOUBLINGS = 5;

export interface CachedName {
  /** The kernel object's address; 0n while not known. */
  object: bigint;
  readonly access: number;
  readonly outcome: NameOutcome;
  /** A disk file's name (see disk-names.ts). */
  readonly disk: boolean;
  /** When the name was last proven: named by the worker, or matched on a known address. */
  provenAtMs: number;
  /** Match key and display form, valid while `keysVersion` equals the drive table's version. */
  key?: string;
  display?: string;
  keysVersion?: number;
  /** For directory handles under a watched dir: is this the process's current directory (PEB)? */
  isCwd?: boolean;
  /** Errors other than access denied are asked again once this time (ms) has passed. */
  retryAtMs?: number;
  /** How many times in a row this handle's name query hung (stalled answers); absent when it answered. */
  hangs?: number;
  /** The scan that last saw this handle. */
  seen: number;
  /** The due time it waits in the background re-checks' list for (background-rechecks.ts). */
  recheckQueuedForMs?: number;
}

interface Bucket {
  names: Map<bigint, CachedName>;
  /** Handles of this pid seen in the current scan (hits and stores). */
  seenCount: number;
  scan: number;
}

export class NameCache {
  private readonly buckets = new Map<number, Bucket>();
  private scan = 0;
  private lastPid = -1;
  private lastBucket: Bucket | undefined;
  /** Re-checks this scan made (RecheckPolicy.maxPerScan). */
  private rechecks = 0;

  beginScan(): void {
    this.scan++;
    this.rechecks = 0;
    this.lastPid = -1;
    this.lastBucket = undefined;
  }

  /** The cached name for this table row, marked as seen; undefined when it must be (re)named. */
  lookup(entry: HandleEntry, nowMs: number, policy: RecheckPolicy): CachedName | undefined {
    const bucket = this.bucket(entry.pid, false);
    const cached = bucket?.names.get(entry.handle);
    if (!bucket || !cached || cached.access !== entry.grantedAccess) return undefined;
    if (cached.object !== 0n && entry.object !== 0n) {
      if (cached.object !== entry.object) return undefined; // the value was reused for another object
      cached.provenAtMs = nowMs;
    } else if (nowMs >= recheckAtMs(cached, entry.pid, policy) && this.rechecks < policy.maxPerScan) {
      this.rechecks++;
      return undefined;
    }
    if (cached.retryAtMs !== undefined && nowMs >= cached.retryAtMs) return undefined;
    if (cached.object === 0n) cached.object = entry.object;
    this.markSeen(bucket, cached);
    return cached;
  }

  /** The name cached for this row's pid and handle value, without marking it seen or checking it. */
  peek(entry: HandleEntry): CachedName | undefined {
    return this.buckets.get(entry.pid)?.names.get(entry.handle);
  }

  /**
   * Stores the worker's answer for a handle that was asked (not one a deadline never reached). A failure
   * other than "denied" (a process exiting mid-query), or a disk name whose second query stalled (a slow
   * disk; asked once more, not again and again), is asked again after NAME_RETRY_MS.
   */
  storeAnswer(entry: HandleEntry, outcome: NameOutcome, nowMs: number): CachedName {
    const answer = outcome.kind === 'named' ? outcome.answer : undefined;
    const failed = answer?.error !== undefined && !answer.error.denied;
    const slowInfo = answer?.infoStalled === true && !infoStalled(this.peek(entry)?.outcome);
    return this.store(entry, outcome, nowMs, failed || slowInfo ? nowMs + NAME_RETRY_MS : undefined);
  }

  store(entry: HandleEntry, outcome: NameOutcome, nowMs: number, retryAtMs?: number): CachedName {
    const bucket = this.bucket(entry.pid, true)!;
    const hangs = hangsCounting(bucket.names.get(entry.handle), entry, outcome);
    const disk = outcome.kind === 'named' && outcome.answer.name !== null && isDiskName(outcome.answer.name);
    // The worker reports the rights of the handle it duplicated. Other rights than the row's mean the
    // value changed hands between the table read and the query: the name is that other handle's, and
    // is kept under its rights (and without the row's address), so the row's own handle is asked for.
    const access = (outcome.kind === 'named' ? outcome.answer.access : undefined) ?? entry.grantedAccess;
    const cached: CachedName = {
      object: access === entry.grantedAccess ? entry.object : 0n,
      access,
      outcome,
      disk,
      provenAtMs: nowMs,
      seen: -1,
      ...(retryAtMs === undefined ? {} : { retryAtMs }),
      ...(hangs === 0 ? {} : { hangs }),
    };
    bucket.names.set(entry.handle, cached);
    this.markSeen(bucket, cached);
    return cached;
  }

  /**
   * Ends a scan over `pids` (every pid for a system-wide scan): handles not seen again were closed
   * and leave the cache. A pid whose every cached handle was seen costs one comparison.
   */
  endScan(pids: Iterable<number>): void {
    for (const pid of pids) {
      const bucket = this.buckets.get(pid);
      if (!bucket) continue;
      const seenNow = bucket.scan === this.scan ? bucket.seenCount : 0;
      if (seenNow === 0) this.buckets.delete(pid);
      else if (seenNow !== bucket.names.size) for (const [handle, cached] of bucket.names) if (cached.seen !== this.scan) bucket.names.delete(handle);
    }
  }

  /** Pids that have cached names (a system-wide scan passes these to endScan too). */
  pids(): IterableIterator<number> {
    return this.buckets.keys();
  }

  forgetProcess(pid: number): void {
    this.buckets.delete(pid);
    if (this.lastPid === pid) this.lastPid = -1;
  }

  get size(): number {
    let total = 0;
    for (const bucket of this.buckets.values()) total += bucket.names.size;
    return total;
  }

  private bucket(pid: number, create: boolean): Bucket | undefined {
    // Table rows come grouped by pid: remember the last bucket rather than hashing every row.
    if (pid === this.lastPid && this.lastBucket) return this.lastBucket;
    let bucket = this.buckets.get(pid);
    if (!bucket && create) {
      bucket = { names: new Map(), seenCount: 0, scan: this.scan };
      this.buckets.set(pid, bucket);
    }
    if (bucket) {
      this.lastPid = pid;
      this.lastBucket = bucket;
    }
    return bucket;
  }

  private markSeen(bucket: Bucket, cached: CachedName): void {
    if (bucket.scan !== this.scan) {
      bucket.scan = this.scan;
      bucket.seenCount = 0;
    }
    if (cached.seen !== this.scan) {
      cached.seen = this.scan;
      bucket.seenCount++;
    }
  }
}

/**
 * Until when a name matched without an address (on either side) is trusted. Spread over half the
 * period to the whole of it by process, so the processes come due at different times, the names of one
 * process together.
 */
export function recheckAtMs(cached: CachedName, pid: number, policy: RecheckPolicy): number {
  const backOff = 2 ** Math.min(Math.max(0, (cached.hangs ?? 1) - 1), MAX_HANG_DOUBLINGS);
  const period = isStalled(cached.outcome) ? policy.stalledMs * backOff : cached.disk ? policy.diskMs : policy.otherMs;
  return cached.provenAtMs + period * (0.5 + ((pid >> 2) % 32) / 64);
}

/** Hangs in a row, this answer included: a stall after a stall of the same handle and rights adds one. */
function hangsCounting(before: CachedName | undefined, entry: HandleEntry, outcome: NameOutcome): number {
  if (!isStalled(outcome)) return 0;
  return before?.access === entry.grantedAccess && isStalled(before.outcome) ? (before.hangs ?? 1) + 1 : 1;
}

/** The handle's own name query hung (asking again would likely hang again). */
export function isStalled(outcome: NameOutcome): boolean {
  return outcome.kind === 'unnamed' && outcome.stalled;
}

function infoStalled(outcome: NameOutcome | undefined): boolean {
  return outcome?.kind === 'named' && outcome.answer.infoStalled === true;
}

/**
 * Whether asking again gave what is cached: the same name, kind and delete state, both clean answers
 * (no error, nothing stalled). Anything else is stored as a new answer.
 */
export function sameAnswer(cached: NameOutcome, asked: NameOutcome): boolean {
  if (cached.kind !== 'named' || asked.kind !== 'named') return false;
  const a = cached.answer;
  const b = asked.answer;
  const clean = (n: typeof a) => n.error === undefined && n.stalled !== true && n.infoStalled !== true;
  return clean(a) && clean(b) && a.name === b.name && a.directory === b.directory && a.deletePending === b.deletePending;
}

// Names already known, per process, keyed by handle value and checked against the object address
// and granted access: a steady-state poll names only new handles. Windows reuses handle values
// quickly, hence the object and access checks. Object 0 means "not known", not another object: a
// process's own table (class 51, the focus scans) has none, nor has Wine, nor Windows 11 24H2's system
// table without SeDebugPrivilege. Compared as different, the focus scans and the full scans between
// them evicted each other's names, and every handle of the test tree was named again ~10 times a
// second. An address learnt later is kept.
// Process identity is not part of the key: ProcessIdentities guarantees a pid still in the table is
// the same process, and the holder source drops a pid's names when it drops the pid.
import type { HandleEntry } from './handle-table.js';
import type { NameOutcome } from './name-worker-client.js';

export interface CachedName {
  /** The kernel object's address; 0n while not known. */
  object: bigint;
  readonly access: number;
  readonly outcome: NameOutcome;
  /** Match key and display form, valid while `keysVersion` equals the drive table's version. */
  key?: string;
  display?: string;
  keysVersion?: number;
  /** For directory handles under a watched dir: is this the process's current directory (PEB)? */
  isCwd?: boolean;
  /** Errors other than access denied are asked again once this time (ms) has passed. */
  retryAtMs?: number;
  /** The scan that last saw this handle. */
  seen: number;
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

  beginScan(): void {
    this.scan++;
    this.lastPid = -1;
    this.lastBucket = undefined;
  }

  /** The cached name for this table row, marked as seen; undefined when it must be (re)named. */
  lookup(entry: HandleEntry, nowMs: number): CachedName | undefined {
    const bucket = this.bucket(entry.pid, false);
    const cached = bucket?.names.get(entry.handle);
    if (!bucket || !cached || !sameObject(cached.object, entry.object) || cached.access !== entry.grantedAccess) return undefined;
    if (cached.retryAtMs !== undefined && nowMs >= cached.retryAtMs) return undefined;
    if (cached.object === 0n) cached.object = entry.object;
    this.markSeen(bucket, cached);
    return cached;
  }

  store(entry: HandleEntry, outcome: NameOutcome, retryAtMs?: number): CachedName {
    const bucket = this.bucket(entry.pid, true)!;
    const cached: CachedName = { object: entry.object, access: entry.grantedAccess, outcome, seen: -1, ...(retryAtMs === undefined ? {} : { retryAtMs }) };
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

/** Two addresses of the same object, as far as is known: 0n (not known) matches any. */
function sameObject(cached: bigint, seen: bigint): boolean {
  return cached === seen || cached === 0n || seen === 0n;
}

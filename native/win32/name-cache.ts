// Names already known, keyed by (pid, create time, handle value, object, access): a steady-state
// poll names only new handles. Windows reuses handle values quickly, so the object address and
// granted access are part of the key (Wine reports object 0; there the value + access must do).
import type { HandleEntry } from './handle-table.js';
import type { NameOutcome } from './name-worker-client.js';

export function handleKey(entry: HandleEntry, createTime: bigint): string {
  return `${entry.pid}:${createTime}:${entry.handle}:${entry.object}:${entry.grantedAccess}`;
}

export class NameCache {
  private known = new Map<string, NameOutcome>();

  get(key: string): NameOutcome | undefined {
    return this.known.get(key);
  }

  /** Keeps only the keys seen in this scan: closed handles leave the cache with the scan. */
  replace(current: Map<string, NameOutcome>): void {
    this.known = current;
  }

  get size(): number {
    return this.known.size;
  }
}

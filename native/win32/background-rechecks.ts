// Re-checks of names no object address proves (Wine; Windows 11 24H2 without SeDebugPrivilege), off the
// poll's path. A process whose File rows are word for word unchanged keeps its last result; when its
// names come due a re-check ("close A, open B" gives B the value A had: name-cache.ts), they are asked
// again here, after the scan has returned, a chunk at a time, while the next polls go on with the last
// result. A name that comes back the same is proven again; one that differs is stored, and the next scan
// examines its process again. Before, a due process was examined again inside the poll: at 100,000
// handles under Wine every poll walked the whole process and waited for 500 names (~0.4 s).
import type { HandleEntry } from './handle-table.js';
import { recheckAtMs, sameAnswer, type CachedName, type NameCache, type RecheckPolicy } from './name-cache.js';
import type { NameOutcome } from './name-worker-client.js';
import { mayHang } from './naming-order.js';

/** A process whose rows are unchanged and whose names are due: its cached name per row. */
export interface DueProcess {
  pid: number;
  /** Row k's cached name (undefined: never named, as in a denied process). */
  names: readonly (CachedName | undefined)[];
  /** Row k as a table entry; called only for the rows asked, before the scan returns. */
  entryAt(k: number): HandleEntry;
}

/** Names per call to the worker: a scan that needs the worker meanwhile waits for one chunk at most. */
export const RECHECK_CHUNK = 100;

/**
 * At most one pick (of up to maxPerScan names) per this long: the rate a watcher polling every 500 ms
 * (the app) re-checked at when each scan made them, however often scans come. A table of 100,000 names
 * without addresses is never all proven within the policy's periods; this bounds what chasing it costs.
 */
export const RECHECK_PICK_MS = 500;

interface Picked {
  entry: HandleEntry;
  cached: CachedName;
}

/** When the first of `names` comes due a re-check; Infinity when none can (all proven by an address). */
export function earliestRecheckMs(names: readonly (CachedName | undefined)[], pid: number, policy: RecheckPolicy): number {
  let earliest = Infinity;
  for (const cached of names) if (cached !== undefined && cached.object === 0n) earliest = Math.min(earliest, recheckAtMs(cached, pid, policy));
  return earliest;
}

export class BackgroundRechecks {
  private running: Promise<void> | null = null;
  private nextPickAtMs = -Infinity;
  private changed = new Set<number>();
  private asked = 0;
  private disposed = false;

  constructor(
    private readonly cache: NameCache,
    private readonly policy: RecheckPolicy,
    /** Names `entries` (the caller queues this behind, or before, a scan's own naming). */
    private readonly ask: (entries: readonly HandleEntry[]) => Promise<NameOutcome[]>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A pick is being asked, or the last one was made less than RECHECK_PICK_MS ago: no new pick now. */
  busy(nowMs: number): boolean {
    return this.running !== null || nowMs < this.nextPickAtMs;
  }

  /** Picks up to maxPerScan due names among `due` (hang-prone access masks last) and asks them in the background. */
  start(due: readonly DueProcess[], nowMs: number): void {
    if (this.running !== null || this.disposed || nowMs < this.nextPickAtMs) return;
    const safe: Picked[] = [];
    const risky: Picked[] = [];
    let room = this.policy.maxPerScan;
    for (const process of due) {
      for (let k = 0; k < process.names.length && room > 0; k++) {
        const cached = process.names[k];
        if (cached === undefined || cached.object !== 0n || nowMs < recheckAtMs(cached, process.pid, this.policy)) continue;
        const entry = process.entryAt(k);
        (mayHang(entry) ? risky : safe).push({ entry, cached });
        room--;
      }
    }
    const picked = safe.concat(risky);
    if (picked.length === 0) return;
    this.nextPickAtMs = nowMs + RECHECK_PICK_MS;
    this.running = this.askAll(picked).finally(() => (this.running = null));
  }

  /** Pids whose names changed since the last call: their last result is stale. */
  takeChanged(): ReadonlySet<number> {
    const changed = this.changed;
    this.changed = new Set();
    return changed;
  }

  /** Names asked again (and answered) since the last call. */
  takeAsked(): number {
    const asked = this.asked;
    this.asked = 0;
    return asked;
  }

  /** Resolves when the pick being asked (if any) is done. */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops after the chunk being asked (its answers are dropped); resolves when it is done. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.running;
  }

  private async askAll(picked: readonly Picked[]): Promise<void> {
    for (let at = 0; at < picked.length && !this.disposed; at += RECHECK_CHUNK) {
      const chunk = picked.slice(at, at + RECHECK_CHUNK);
      const askedAtMs = this.now();
      let outcomes: NameOutcome[];
      try {
        outcomes = await this.ask(chunk.map((p) => p.entry));
      } catch {
        return; // the names stay due: the next pick asks them again
      }
      if (this.disposed) return;
      chunk.forEach((p, i) => this.apply(p, outcomes[i]!, askedAtMs));
    }
  }

  private apply({ entry, cached }: Picked, outcome: NameOutcome, askedAtMs: number): void {
    // Examined again meanwhile (its rows changed), or its process is gone: that answer is newer than this one.
    if (this.cache.peek(entry) !== cached) return;
    // Never asked (the batch's deadline, no worker): still due, picked again later.
    if (outcome.kind === 'unnamed' && !outcome.stalled) return;
    this.asked++;
    if (sameAnswer(cached.outcome, outcome)) {
      cached.provenAtMs = askedAtMs;
      // Asked again as for a new handle: a directory under the dir may have become the current directory.
      delete cached.isCwd;
      return;
    }
    this.cache.storeAnswer(entry, outcome, askedAtMs);
    this.changed.add(entry.pid);
  }
}

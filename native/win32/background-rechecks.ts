// Re-checks of names no object address proves (Wine; Windows 11 24H2 without SeDebugPrivilege), off the
// poll's path. Every such name a scan keeps waits in a due list (recheck-queue.ts) for the time its
// policy trusts it; a pick takes the names that came due, a bounded number, fairly across processes,
// and asks them again here, after the scan has returned, a chunk at a time, while the next polls go on
// with the last result ("close A, open B" gives B the value A had: name-cache.ts). A name that comes
// back the same is proven again and queued for its next time; one that differs is stored, and the next
// scan examines its process again. A poll neither waits for names nor walks the ones not due.
import type { HandleEntry } from './handle-table.js';
import { isStalled, recheckAtMs, sameAnswer, type CachedName, type NameCache, type RecheckPolicy } from './name-cache.js';
import type { NameOutcome } from './name-worker-client.js';
import { mayHang } from './naming-order.js';
import { RecheckQueue } from './recheck-queue.js';

/** Names per call to the worker: a scan that needs the worker meanwhile waits for one chunk at most. */
export const RECHECK_CHUNK = 100;

/**
 * At most one pick of up to RECHECK_PICK_MAX names per this long, however often scans come. A table
 * of 100,000 names without addresses is never all proven within the policy's periods; this bounds
 * what chasing it costs, and the round-robin pick keeps every other process within its period.
 */
export const RECHECK_PICK_MS = 500;
export const RECHECK_PICK_MAX = 500;

/**
 * Names that hung before, asked again at most this many per HUNG_RECHECK_WINDOW_MS (the longest
 * overdue first): each that hangs again holds a worker's thread, and 15 held threads retire the
 * worker. However many handles hang (pipes with reads pending, many on a developer's machine),
 * re-checks then start a worker about once every two windows, not one a pick.
 */
export const HUNG_RECHECKS_PER_WINDOW = 8;
export const HUNG_RECHECK_WINDOW_MS = 60_000;

const NO_PIDS: ReadonlySet<number> = new Set();

interface Picked {
  entry: HandleEntry;
  cached: CachedName;
}

export class BackgroundRechecks {
  private running: Promise<void> | null = null;
  private nextPickAtMs = -Infinity;
  private changed = new Set<number>();
  private asked = 0;
  private disposed = false;
  private readonly due = new RecheckQueue<Picked>();
  private hungWindowStartMs = -Infinity;
  private hungLeft = 0;

  constructor(
    private readonly cache: NameCache,
    private readonly policy: RecheckPolicy,
    /** Names `entries` (the caller queues this behind, or before, a scan's own naming). */
    private readonly ask: (entries: readonly HandleEntry[]) => Promise<NameOutcome[]>,
    private readonly now: () => number = () => performance.now(),
    private readonly pickMax = RECHECK_PICK_MAX,
  ) {}

  /**
   * Queues `cached`, the name a scan keeps for `entry`, for its re-check, unless no re-check is due
   * (an address proves it, or the policy trusts it for ever) or it is queued for that time already.
   */
  track(entry: HandleEntry, cached: CachedName): void {
    if (cached.object !== 0n) return;
    const dueAtMs = recheckAtMs(cached, entry.pid, this.policy);
    if (dueAtMs === Infinity || cached.recheckQueuedForMs === dueAtMs) return;
    cached.recheckQueuedForMs = dueAtMs;
    this.due.push(entry.pid, { entry, cached }, dueAtMs);
  }

  /** Drops a process's queued names (it exited, or its pid is another process's now). */
  forget(pid: number): void {
    this.due.forget(pid);
  }

  /** Names waiting for a re-check, including ones that changed since and will be dropped when due. */
  get queued(): number {
    return this.due.size;
  }

  /** A pick is being asked, or the last one was made less than RECHECK_PICK_MS ago: no new pick now. */
  busy(nowMs: number): boolean {
    return this.running !== null || nowMs < this.nextPickAtMs;
  }

  /** Picks up to `pickMax` due names (hang-prone access masks last) and asks them in the background. */
  start(nowMs: number): void {
    if (this.busy(nowMs) || this.disposed || !this.due.anyDue(nowMs)) return;
    const picked = this.withinHungBudget(
      this.due.takeDue(nowMs, this.pickMax, (p, dueAtMs) => this.stillDue(p, dueAtMs)),
      nowMs,
    );
    if (picked.length === 0) return;
    const safe = picked.filter((p) => !mayHang(p.entry));
    const risky = picked.filter((p) => mayHang(p.entry));
    this.nextPickAtMs = nowMs + RECHECK_PICK_MS;
    this.running = this.askAll(safe.concat(risky)).finally(() => (this.running = null));
  }

  /** The picked names but the hung ones past this window's budget, which wait in the list for the next window. */
  private withinHungBudget(picked: Picked[], nowMs: number): Picked[] {
    if (nowMs - this.hungWindowStartMs >= HUNG_RECHECK_WINDOW_MS) {
      this.hungWindowStartMs = nowMs;
      this.hungLeft = HUNG_RECHECKS_PER_WINDOW;
    }
    const overdueSince = (p: Picked) => recheckAtMs(p.cached, p.entry.pid, this.policy);
    const hung = picked.filter((p) => isStalled(p.cached.outcome)).sort((a, b) => overdueSince(a) - overdueSince(b));
    const waiting = new Set(hung.slice(this.hungLeft));
    this.hungLeft -= hung.length - waiting.size;
    const nextWindowMs = this.hungWindowStartMs + HUNG_RECHECK_WINDOW_MS;
    for (const p of waiting) {
      p.cached.recheckQueuedForMs = nextWindowMs;
      this.due.push(p.entry.pid, p, nextWindowMs);
    }
    return picked.filter((p) => !waiting.has(p));
  }

  /** Pids whose names changed since the last call: their last result is stale. */
  takeChanged(): ReadonlySet<number> {
    if (this.changed.size === 0) return NO_PIDS;
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
        // The names stay due: a later pick asks them again.
        for (const p of picked.slice(at)) if (this.cache.peek(p.entry) === p.cached) this.requeue(p.entry, p.cached);
        return;
      }
      if (this.disposed) return;
      chunk.forEach((p, i) => this.apply(p, outcomes[i]!, askedAtMs));
    }
  }

  /**
   * Whether a queued name is still the one to ask at `dueAtMs`. Proven again since (queued anew), or its
   * handle closed: dropped. Replaced by a scan (a focus scan asked it): the new name is queued instead.
   */
  private stillDue({ entry, cached }: Picked, dueAtMs: number): boolean {
    const now = this.cache.peek(entry);
    if (now !== cached) {
      if (now !== undefined && now.access === entry.grantedAccess) this.track(entry, now);
      return false;
    }
    return cached.object === 0n && cached.recheckQueuedForMs === dueAtMs;
  }

  private apply({ entry, cached }: Picked, outcome: NameOutcome, askedAtMs: number): void {
    // Examined again meanwhile (its rows changed), or its process is gone: that answer is newer than this one.
    if (this.cache.peek(entry) !== cached) return;
    // Never asked (the batch's deadline, no worker): still due, picked again later.
    if (outcome.kind === 'unnamed' && !outcome.stalled) return this.requeue(entry, cached);
    this.asked++;
    if (sameAnswer(cached.outcome, outcome)) {
      cached.provenAtMs = askedAtMs;
      // Asked again as for a new handle: a directory under the dir may have become the current directory.
      delete cached.isCwd;
      this.track(entry, cached);
      return;
    }
    this.track(entry, this.cache.storeAnswer(entry, outcome, askedAtMs));
    this.changed.add(entry.pid);
  }

  /** A name picked but not asked: due again at once, for a later pick. */
  private requeue(entry: HandleEntry, cached: CachedName): void {
    delete cached.recheckQueuedForMs;
    this.track(entry, cached);
  }
}

// The names waiting for a re-check (background-rechecks.ts), one min-heap per process ordered by when
// each comes due. A pick takes due names round-robin across processes: one process with 100,000
// handles, always behind on its re-checks, would otherwise take every pick, and a reused handle value
// in any other process would never be asked again. Nothing here walks the names that are not due.

/** A name queued for `dueAtMs`; `isCurrent` (the caller's) drops the ones that changed meanwhile. */
interface Queued<T> {
  item: T;
  dueAtMs: number;
}

export class RecheckQueue<T> {
  private readonly heaps = new Map<number, Queued<T>[]>();
  private queued = 0;
  /** No item is due before this (a lower bound: exact after a pick), so a poll with none due walks nothing. */
  private earliestDueAtMs = Infinity;

  push(pid: number, item: T, dueAtMs: number): void {
    let heap = this.heaps.get(pid);
    if (!heap) this.heaps.set(pid, (heap = []));
    heap.push({ item, dueAtMs });
    siftUp(heap, heap.length - 1);
    this.queued++;
    this.earliestDueAtMs = Math.min(this.earliestDueAtMs, dueAtMs);
  }

  /** Whether some item may be due at `nowMs`: false means takeDue would find none. */
  anyDue(nowMs: number): boolean {
    return this.queued > 0 && nowMs >= this.earliestDueAtMs;
  }

  /**
   * Up to `max` items due at `nowMs`, one process after another in turn; items `isCurrent` rejects are
   * dropped without counting.
   */
  takeDue(nowMs: number, max: number, isCurrent: (item: T, dueAtMs: number) => boolean): T[] {
    const taken: T[] = [];
    let turn = [...this.heaps.keys()];
    while (taken.length < max && turn.length > 0) {
      const next: number[] = [];
      for (const pid of turn) {
        if (taken.length === max) break;
        const item = this.popDue(pid, nowMs, isCurrent);
        if (item === undefined) continue;
        taken.push(item);
        next.push(pid);
      }
      turn = next;
    }
    this.earliestDueAtMs = Infinity;
    for (const heap of this.heaps.values()) if (heap.length > 0) this.earliestDueAtMs = Math.min(this.earliestDueAtMs, heap[0]!.dueAtMs);
    return taken;
  }

  forget(pid: number): void {
    this.queued -= this.heaps.get(pid)?.length ?? 0;
    this.heaps.delete(pid);
  }

  get size(): number {
    return this.queued;
  }

  private popDue(pid: number, nowMs: number, isCurrent: (item: T, dueAtMs: number) => boolean): T | undefined {
    const heap = this.heaps.get(pid)!;
    while (heap.length > 0 && heap[0]!.dueAtMs <= nowMs) {
      const top = heap[0]!;
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        siftDown(heap, 0);
      }
      this.queued--;
      if (isCurrent(top.item, top.dueAtMs)) return top.item;
    }
    if (heap.length === 0) this.heaps.delete(pid);
    return undefined;
  }
}

function siftUp<T>(heap: Queued<T>[], at: number): void {
  const moving = heap[at]!;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (heap[parent]!.dueAtMs <= moving.dueAtMs) break;
    heap[at] = heap[parent]!;
    at = parent;
  }
  heap[at] = moving;
}

function siftDown<T>(heap: Queued<T>[], at: number): void {
  const moving = heap[at]!;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= heap.length) break;
    if (child + 1 < heap.length && heap[child + 1]!.dueAtMs < heap[child]!.dueAtMs) child++;
    if (heap[child]!.dueAtMs >= moving.dueAtMs) break;
    heap[at] = heap[child]!;
    at = child;
  }
  heap[at] = moving;
}

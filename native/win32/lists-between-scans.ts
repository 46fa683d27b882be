// Re-reads the module and mapped-view lists that came due, between system scans, one process a turn of
// the event loop: a scan asked for meanwhile waits for one process's lists at most, never for all of them.
import type { ModuleHoldings } from './module-holdings.js';

export class ListsBetweenScans {
  private pending: number[] = [];
  private timer: ReturnType<typeof setImmediate> | undefined;
  private disposed = false;

  constructor(
    private readonly modules: Pick<ModuleHoldings, 'duePids' | 'refreshLists'>,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** After a system scan: starts on the lists due at `nowMs`, unless a round is still going. */
  start(nowMs: number): void {
    if (this.timer !== undefined || this.disposed) return;
    this.pending = this.modules.duePids(nowMs);
    if (this.pending.length > 0) this.next();
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) clearImmediate(this.timer);
    this.timer = undefined;
  }

  private next(): void {
    // Unref'd: a one-shot scan exits without waiting for a round.
    this.timer = setImmediate(() => {
      this.timer = undefined;
      const pid = this.pending.shift();
      if (pid === undefined || this.disposed) return;
      this.modules.refreshLists(pid, this.now());
      if (this.pending.length > 0) this.next();
    }).unref();
  }
}

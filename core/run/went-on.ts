// When a test process went on without the scan at a test's end: it stopped waiting (`went-on`, said
// while or after that scan runs), or never waited (a boundary sent while an earlier ack was owed).
// Either entry may come first in the journal; the boundary gets its moment whichever does.
import type { JournalEntry } from '../../contract/journal.js';
import type { Boundary } from './verdict.js';

type WentOn = Extract<JournalEntry, { t: 'went-on' }>;

const keyOf = (pid: number, test: string, scope: string | undefined, atMs: number) => `${pid}\0${test}\0${scope ?? ''}\0${atMs}`;

export class WentOnLedger {
  /** Went-on moments whose boundary entry has not come yet. */
  private readonly early = new Map<string, number>();
  /**
   * Each process's last scanned boundary: the only one a later went-on can name (a process waits for
   * its latest test end only), so a long run keeps one per process, not one per test.
   */
  private readonly lastScanned = new Map<number, { key: string; boundary: Boundary }>();

  /** A boundary entry: `unwaited`, its process went on at the test's end (`atMs`). */
  boundary(boundary: Boundary, atMs: number, unwaited: boolean): void {
    if (boundary.by === 'self-inventory') return; // a list made by the process itself: nothing to wait for
    if (unwaited) {
      boundary.wentOnAtMs = atMs;
      return;
    }
    const key = keyOf(boundary.pid, boundary.test, boundary.scope, atMs);
    const early = this.early.get(key);
    if (early === undefined) this.lastScanned.set(boundary.pid, { key, boundary });
    else {
      boundary.wentOnAtMs = early;
      this.early.delete(key);
    }
  }

  wentOn(entry: WentOn): void {
    const key = keyOf(entry.pid, entry.test, entry.scope, entry.atMs);
    const last = this.lastScanned.get(entry.pid);
    if (last?.key === key) last.boundary.wentOnAtMs = entry.wentOnAtMs;
    else this.early.set(key, entry.wentOnAtMs);
  }
}

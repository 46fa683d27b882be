// After the command exits, the run's processes that outlived it are followed while one is alive and
// holding something under the watched dirs: a detached child often opens or keeps its file for
// seconds after the suite exits.
import type { Holder } from '../../contract/holders.js';
import { withDeadline, type Clock } from '../clock.js';
import type { Watcher } from '../watch.js';
import type { RunMembership } from './membership.js';

/**
 * After the command exits, a live descendant holding nothing yet keeps the run followed this long: a
 * child started in the suite's last moments may still be starting (an interpreter's start-up) and open
 * its file just after. Past it, the wait goes on only while one holds something under the watched dirs.
 */
const OUTLIVING_SETTLE_MS = 300;

const STAGE = 'following the processes that outlived the command';

export interface OutlivingFollow {
  watcher: Watcher;
  membership: RunMembership;
  clock: Clock;
  /** At most this long (0: not at all). */
  graceMs: number;
  intervalMs: number;
  /** Past this, a scan that never returns is left behind, said through onError. */
  deadlineMs: number;
  isKnown: (holder: Holder) => boolean;
  /** Said once, when there is something to follow. */
  stage: (stage: string) => void;
  onError: (error: unknown) => void;
}

/**
 * Scans at each poll while one of the run's processes is alive and holding something under the watched
 * dirs, for at most `graceMs`. Ends at once when none is alive, and after OUTLIVING_SETTLE_MS when none
 * holds anything: a run without such a process finishes without waiting.
 */
export async function followOutliving({
  watcher,
  membership,
  clock,
  graceMs,
  intervalMs,
  deadlineMs,
  isKnown,
  stage,
  onError,
}: OutlivingFollow): Promise<void> {
  if (graceMs <= 0) return;
  const fromMs = clock.now();
  let given = false; // past its deadline (a scan that never returns): the loop stops at its next turn
  const follow = async () => {
    for (let polls = 0; !given; polls++) {
      // As at the run's 100 ms polls: a pid still listed is, all but surely, the process read a moment ago
      // (pids are reused only once the kernel's counter wraps), so only new pids' stat is read, not all.
      await membership.refresh({ fresh: false });
      if (membership.pids().length === 0) return;
      if (polls === 0) stage(STAGE);
      await watcher.scanNow({ full: false });
      const alive = new Set(membership.pids());
      const holding = watcher.current().some((h) => alive.has(h.pid) && isKnown(h));
      const elapsedMs = clock.now() - fromMs;
      if (elapsedMs >= graceMs || (!holding && elapsedMs >= Math.min(OUTLIVING_SETTLE_MS, graceMs))) return;
      await new Promise<void>((resolve) => clock.setTimeout(resolve, Math.min(intervalMs, graceMs - elapsedMs)));
    }
  };
  await withDeadline(clock, follow(), deadlineMs, STAGE).catch((error: unknown) => {
    given = true;
    onError(error);
  });
}

// How a long-lived watch (`holdwatch watch`, the app's, the library's) paces its full scans: with the
// platform's change feed it slows them down while nothing changes, since the feed hurries the next one
// as soon as something does. Without a feed the pace stays fixed: nothing would hurry a slowed scan.
import type { ChangeFeed, WatchDir } from '../core/platform.js';
import type { WatcherOptions } from '../core/watch.js';
import { openChangeFeed } from '../native/index.js';

/**
 * The longest wait between full scans while nothing changes: Process Explorer's refresh, about. A scan
 * walks every process; the changes the feed cannot see (a chdir, an fd inherited or dup'ed into a
 * process that was already running) wait at most this long.
 */
export const SLOWEST_FULL_SCAN_MS = 2000;

export interface WatchPacing {
  /** Spread into the Watcher's options. */
  readonly options: Pick<WatcherOptions, 'changes' | 'slowestIntervalMs'>;
  /** Closes the feed (its inotify fd). Idempotent. */
  dispose(): void;
}

export async function openWatchPacing(dirs: readonly WatchDir[], fullIntervalMs: number): Promise<WatchPacing> {
  let feed: ChangeFeed | null = null;
  try {
    feed = await openChangeFeed(dirs);
  } catch {
    // No feed: the watch scans at its fixed pace, as it always could.
  }
  if (!feed) return { options: {}, dispose: () => undefined };
  const changes = feed;
  return { options: { changes, slowestIntervalMs: Math.max(fullIntervalMs, SLOWEST_FULL_SCAN_MS) }, dispose: () => changes.dispose() };
}

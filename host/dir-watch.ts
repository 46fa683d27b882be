// One watch of a front end's dirs on a holder source: the dirs resolved, the Watcher, its pacing (the
// change feed), the guard that sees a dir deleted or replaced, the retry on a passing shortage.
// watchDirs (holdwatch.ts) starts one, and another in its place when it follows a replaced dir.
import type { Holder, WatchEvent } from '../contract/holders.js';
import { DisposableStore } from '../core/disposable-store.js';
import type { HolderSource, WatchDir } from '../core/platform.js';
import { Watcher } from '../core/watch.js';
import { resolveAndStepOut, type WorkingDirectory } from './resolve-dir.js';
import { systemClock } from './system-clock.js';
import { openWatchPacing } from './watch-pacing.js';
import { WatchRetry } from './watch-retry.js';
import { watchedDirsGuard } from './watched-dir-identity.js';

export interface DirWatchOptions {
  workingDirectory?: WorkingDirectory;
  intervalMs: number;
  onPoll: (events: WatchEvent[], current: Holder[]) => void;
  /** The watch stopped: a dir deleted or replaced (WatchedDirChangedError), or a scan that failed for good. */
  onStopped: (error: unknown) => void;
  onRetrying?: (sentence: string) => void;
  onRecovered?: () => void;
}

export interface DirWatch {
  readonly dirs: readonly WatchDir[];
  current(): Holder[];
  /** Stops polling and closes the change feed; the source stays the caller's. Idempotent. */
  dispose(): Promise<void>;
}

/** Resolves `inputs` (stepping out of them, given a working directory) and starts polling them. */
export async function startDirWatch(source: HolderSource, inputs: readonly string[], options: DirWatchOptions): Promise<DirWatch> {
  const resolved = [];
  for (const dir of inputs)
    resolved.push(options.workingDirectory ? await resolveAndStepOut(source, dir, options.workingDirectory) : await source.resolveWatchDir(dir));
  // The watcher, then its pacing: released in that order.
  const owned = new DisposableStore();
  const paced = owned.add(await openWatchPacing(resolved, options.intervalMs));
  const retry = new WatchRetry({
    onRetrying: (sentence) => options.onRetrying?.(sentence),
    onRecovered: () => options.onRecovered?.(),
    onStopped: options.onStopped,
  });
  const watcher: Watcher = owned.add(
    new Watcher({
      source,
      dirs: resolved,
      clock: systemClock,
      fullIntervalMs: options.intervalMs,
      ...paced.options,
      beforePoll: watchedDirsGuard(resolved),
      onPoll: ({ events }) => {
        retry.polled();
        options.onPoll(events, watcher.current());
      },
      ...retry.watcherOptions,
    }),
  );
  retry.attach(watcher);
  watcher.start();
  return { dirs: resolved, current: () => watcher.current(), dispose: () => owned.dispose() };
}

// How a long-lived watch (`holdwatch watch`, the app's, the library's) meets a failing scan. The fd
// table full (a flood of connections, another process's leak) or memory short passes: the watch waits
// longer each time and goes on, rather than stopping for good. Anything else ends it. One policy for
// every front end; each says it its own way (a status in the UI, a line on stderr in a terminal).
import { isPassingShortage, messageOf } from '../core/errors.js';
import type { Watcher, WatcherOptions } from '../core/watch.js';

/** The longest a watch waits between tries while its scans fail for a passing lack of resources. */
export const MAX_RETRY_DELAY_MS = 30_000;

export interface WatchRetryHandlers {
  /** A scan failed for a passing reason; `sentence` says why and when the next try is. */
  onRetrying: (sentence: string, error: unknown) => void;
  /** The first poll that worked after failed ones. */
  onRecovered: () => void;
  /** Any other failure: the watch is over (the Watcher has been disposed). */
  onStopped: (error: unknown) => void;
}

export class WatchRetry {
  private failing = false;
  private watcher: Watcher | null = null;

  constructor(private readonly handlers: WatchRetryHandlers) {}

  /** Spread into the Watcher's options; then `attach` it, so the sentence can say when the next try is. */
  readonly watcherOptions: Pick<WatcherOptions, 'maxRetryDelayMs' | 'onError'> = {
    maxRetryDelayMs: MAX_RETRY_DELAY_MS,
    onError: (error) => this.failed(error),
  };

  attach(watcher: Watcher): void {
    this.watcher = watcher;
  }

  /** Call from the Watcher's onPoll: a poll that worked ends a run of failures. */
  polled(): void {
    if (!this.failing) return;
    this.failing = false;
    this.handlers.onRecovered();
  }

  /** Whether the last poll failed and the watch is waiting to try again. */
  get isRetrying(): boolean {
    return this.failing;
  }

  private failed(error: unknown): void {
    if (!isPassingShortage(error)) {
      this.watcher?.dispose();
      this.handlers.onStopped(error);
      return;
    }
    this.failing = true;
    const inSeconds = Math.ceil((this.watcher?.nextPollDelayMs ?? 0) / 1000);
    this.handlers.onRetrying(`Scans are failing (${messageOf(error)}); trying again in ${inSeconds} s.`, error);
  }
}

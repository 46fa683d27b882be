// A service whose only stream is the watch's polls, pushed by hand: what subscribeAll needs to cut a
// poll into messages, for tests and benches of the wire.
import type { WatchEvent } from './holders.js';
import type { HoldwatchService } from './service.js';

export function pollingService(): { service: HoldwatchService; emitPoll: (watchId: string, events: readonly WatchEvent[]) => void } {
  let listener: (watchId: string, events: readonly WatchEvent[]) => void = () => {};
  const service = {
    onWatchEvents: (l: typeof listener) => ((listener = l), () => {}),
    onWatchStatus: () => () => {},
    onRunEvent: () => () => {},
    onOpenDirRequest: () => () => {},
  } as unknown as HoldwatchService;
  return { service, emitPoll: (watchId, events) => listener(watchId, events) };
}

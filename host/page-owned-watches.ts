// The watches one page started, for both front ends' pages: a browser tab's WebSocket (web/ui-server.ts)
// and an Electron window's document (window-pages.ts). A page closed or reloaded without stopWatch
// would leave its watches scanning for no one, so they stop when the page goes.
import { dispatchRequest } from '../contract/service-client.js';
import type { HoldwatchService } from '../contract/service.js';

export class PageOwnedWatches {
  private readonly watches = new Set<string>();
  private gone = false;

  constructor(private readonly service: HoldwatchService) {}

  /** Answers one of the page's requests (validated against the contract); a watch it starts is the page's. */
  async request(method: unknown, request: unknown): Promise<unknown> {
    const result = await dispatchRequest(this.service, method, request);
    if (method === 'startWatch') {
      const { watchId } = result as { watchId: string };
      // The page went while the watch started: nobody will ever stop it but us.
      if (this.gone) this.stop(watchId);
      else this.watches.add(watchId);
    }
    if (method === 'stopWatch' && typeof request === 'string') this.watches.delete(request);
    return result;
  }

  /** The page is gone: its watches stop, and so does any whose start is still being answered. Idempotent. */
  dispose(): void {
    this.gone = true;
    for (const watchId of this.watches) this.stop(watchId);
    this.watches.clear();
  }

  private stop(watchId: string): void {
    void this.service.stopWatch(watchId).catch(() => undefined);
  }
}

// What one page started, for both front ends' pages: a browser tab's WebSocket (web/ui-server.ts) and
// an Electron window's document (window-pages.ts). A page closed, reloaded or gone silent would leave
// it running for no one, so it ends with the page: the watches stop, the terminal runs it follows are
// let go, and a live stack still being captured ends with its debugger.
import { dispatchRequest } from '../contract/service-client.js';
import type { HoldwatchService, ServiceMethod } from '../contract/service.js';

type Ending = 'stopWatch' | 'stopRun';

/** Each request that starts something a page owns: the request that ends it, and its id. */
const OWNED_STARTS: Partial<Record<ServiceMethod, { endedBy: Ending; idOf: (result: unknown, request: unknown) => string }>> = {
  startWatch: { endedBy: 'stopWatch', idOf: (result) => (result as { watchId: string }).watchId },
  // Each attachRun is one follower of the run in the session; each stopRun ends one (session-runs.ts).
  attachRun: { endedBy: 'stopRun', idOf: (_result, runId) => runId as string },
};

interface Owned {
  endedBy: Ending;
  id: string;
  /** Started this many times and not yet ended by the page itself. */
  count: number;
}

export class PageOwned {
  /** By `<ending method> <id>`. */
  private readonly owned = new Map<string, Owned>();
  /** Ends what the page's requests still run (CallContext): a live stack's worker and its debugger. */
  private readonly requests = new AbortController();

  constructor(private readonly service: HoldwatchService) {}

  /** Answers one of the page's requests (validated against the contract); what it starts is the page's. */
  async request(method: unknown, request: unknown): Promise<unknown> {
    const result = await dispatchRequest(this.service, method, request, { signal: this.requests.signal });
    const start = OWNED_STARTS[method as ServiceMethod];
    if (start) {
      const id = start.idOf(result, request);
      // The page went while this started: nobody will ever end it but us.
      if (this.requests.signal.aborted) this.end(start.endedBy, id);
      else this.ownOne(start.endedBy, id);
    }
    if ((method === 'stopWatch' || method === 'stopRun') && typeof request === 'string') this.endedByPage(method, request);
    return result;
  }

  /** The page is gone: all it started ends, and so does anything whose start is still being answered. Idempotent. */
  dispose(): void {
    this.requests.abort();
    for (const { endedBy, id, count } of this.owned.values()) for (let i = 0; i < count; i++) this.end(endedBy, id);
    this.owned.clear();
  }

  private ownOne(endedBy: Ending, id: string): void {
    const owned = this.owned.get(`${endedBy} ${id}`);
    if (owned) owned.count++;
    else this.owned.set(`${endedBy} ${id}`, { endedBy, id, count: 1 });
  }

  private endedByPage(endedBy: Ending, id: string): void {
    const owned = this.owned.get(`${endedBy} ${id}`);
    if (owned && --owned.count === 0) this.owned.delete(`${endedBy} ${id}`);
  }

  private end(endedBy: Ending, id: string): void {
    void this.service[endedBy](id).catch(() => undefined);
  }
}

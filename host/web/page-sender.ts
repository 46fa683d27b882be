// What a page is sent, bounded. What a page has not read yet waits in this process's memory: a run
// printing 300 MB to a page that did not read (an SSH tunnel, a stalled tab) took the host to 505 MB.
// Past `highWaterBytes` waiting, a run's output for that page is dropped and counted; once the page has
// caught up (below `lowWaterBytes`) it is told how much it missed, in the run's stderr. Past
// `closeAtBytes` (other events piling up too), the page is closed with 1013, "try again later".
import type { WebSocket } from 'ws';
import type { ServiceEvent } from '../../contract/service.js';

export interface SendLimits {
  highWaterBytes: number;
  lowWaterBytes: number;
  closeAtBytes: number;
}

export const SEND_LIMITS: SendLimits = { highWaterBytes: 8 << 20, lowWaterBytes: 1 << 20, closeAtBytes: 64 << 20 };

/** How often a page that missed output is checked for having caught up, when no event comes to do it. */
const CATCH_UP_CHECK_MS = 250;

export class PageSender {
  /** Bytes of output not sent, by run. */
  private readonly missed = new Map<string, number>();
  private catchUp: NodeJS.Timeout | null = null;

  constructor(
    private readonly ws: WebSocket,
    private readonly limits: SendLimits = SEND_LIMITS,
  ) {
    ws.once('close', () => this.stopCatchUp());
  }

  /** An answer to a request: always sent. */
  reply(message: unknown): void {
    this.send(message);
  }

  event(event: ServiceEvent): void {
    if (event.channel === 'run' && event.event.type === 'output' && this.ws.bufferedAmount > this.limits.highWaterBytes) {
      this.missed.set(event.runId, (this.missed.get(event.runId) ?? 0) + Buffer.byteLength(event.event.text));
      this.catchUp ??= setInterval(() => this.sayMissed(), CATCH_UP_CHECK_MS).unref();
      return;
    }
    this.sayMissed();
    this.send({ event });
  }

  private sayMissed(): void {
    if (this.missed.size === 0 || this.ws.bufferedAmount > this.limits.lowWaterBytes) return;
    for (const [runId, bytes] of this.missed) {
      const text = `holdwatch: ${bytes} bytes of this run's output were not sent to this page, which was reading too slowly\n`;
      this.send({ event: { channel: 'run', runId, event: { type: 'output', stream: 'stderr', text } } });
    }
    this.missed.clear();
    this.stopCatchUp();
  }

  private send(message: unknown): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.ws.send(JSON.stringify(message));
    if (this.ws.bufferedAmount > this.limits.closeAtBytes) this.ws.close(1013, 'the page reads too slowly');
  }

  private stopCatchUp(): void {
    if (this.catchUp) clearInterval(this.catchUp);
    this.catchUp = null;
  }
}

// The pages one Electron window shows over its life. A reload or a navigation of its main frame ends
// one document and starts the next; a crashed renderer or a closed window ends it too. What a document
// started (PageOwned) is released as it ends, as a browser tab's is when its WebSocket closes.
// Written against the few webContents events it needs, so it runs (and is tested) without Electron.
import type { HoldwatchService } from '../contract/service.js';
import { PageOwned } from './page-owned.js';

/** The events of Electron's WebContents this listens to (positional `did-start-navigation` arguments). */
export interface WindowContents {
  on(event: 'did-start-navigation', listener: (event: unknown, url: string, isInPlace: boolean, isMainFrame: boolean) => void): unknown;
  on(event: 'render-process-gone' | 'destroyed', listener: () => void): unknown;
}

export class WindowPages {
  private page: PageOwned;
  private ended = false;

  constructor(
    private readonly service: HoldwatchService,
    contents: WindowContents,
  ) {
    this.page = new PageOwned(service);
    contents.on('did-start-navigation', (_event, _url, isInPlace, isMainFrame) => {
      // A fragment change or a frame inside the page keeps the document (and what it started).
      if (isMainFrame && !isInPlace) this.nextPage();
    });
    contents.on('render-process-gone', () => this.nextPage());
    contents.on('destroyed', () => this.dispose());
  }

  /**
   * Answers a request of the document shown now. The page is taken when the request comes: one that
   * an older document made and that is answered after it went releases what it started at once.
   */
  request(method: unknown, request: unknown): Promise<unknown> {
    return this.page.request(method, request);
  }

  /** The window is gone: what its last document started stops. Idempotent. */
  dispose(): void {
    this.ended = true;
    this.page.dispose();
  }

  private nextPage(): void {
    this.page.dispose();
    if (!this.ended) this.page = new PageOwned(this.service);
  }
}

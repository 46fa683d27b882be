// The only place ipcMain is used: one handler per contract method (channels derived from the
// contract), the sender checked (our window, our origin), the payload validated before the session
// sees it, and the session's events forwarded to the window.
import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { HoldwatchService } from '../contract/service.js';
import { subscribeAll } from '../contract/service-client.js';
import { IPC_EVENT_CHANNEL, ipcChannelOf, SERVICE_METHOD_NAMES } from '../contract/service.js';
import { WindowPages } from '../host/window-pages.js';
import { APP_ORIGIN } from './app-protocol.js';

export function serveServiceOverIpc(service: HoldwatchService, isOurs: (contents: WebContents) => boolean): () => void {
  const trusted = (event: IpcMainInvokeEvent) => isOurs(event.sender) && event.senderFrame !== null && new URL(event.senderFrame.url).origin === APP_ORIGIN;
  // Each window's documents own what they start (host/window-pages.ts): a reload or a crash releases it.
  const windows = new WeakMap<WebContents, WindowPages>();
  const pagesOf = (contents: WebContents) => windows.get(contents) ?? windows.set(contents, new WindowPages(service, contents)).get(contents)!;
  for (const method of SERVICE_METHOD_NAMES) {
    ipcMain.handle(ipcChannelOf(method), async (event, request: unknown) => {
      if (!trusted(event)) throw new Error('holdwatch: refused a request from an untrusted sender');
      // The request is validated against the contract and rejected with a readable error.
      return pagesOf(event.sender).request(method, request);
    });
  }
  return () => SERVICE_METHOD_NAMES.forEach((m) => ipcMain.removeHandler(ipcChannelOf(m)));
}

/** Pushes every service event to one window while it lives. */
export function forwardEvents(service: HoldwatchService, contents: WebContents): () => void {
  const off = subscribeAll(service, (event) => {
    if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event);
  });
  contents.once('destroyed', off);
  return off;
}

// `holdwatch ui`'s transport: requests and events over one WebSocket to the page's own origin, which
// offers the access token as a subprotocol (contract/ui-protocol.ts).
import type { ServiceTransport } from '../../contract/service-client.js';
import type { ServiceMethod } from '../../contract/service.js';
import { API_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../contract/ui-protocol.js';

export interface ConnectionListener {
  (state: 'open' | 'closed', reason: string | null): void;
}

const LOST = 'Lost the connection to holdwatch ui (was it stopped?). Start `holdwatch ui` again and open the URL it prints.';
const NO_TOKEN = 'This page has no access token: open the URL `holdwatch ui` printed (the part after # carries it).';

export function webSocketTransport(url: string, token: string | null, onConnection: ConnectionListener): ServiceTransport {
  const socket = new WebSocket(url, token ? [API_PROTOCOL, TOKEN_PROTOCOL_PREFIX + token] : [API_PROTOCOL]);
  const lost = token ? LOST : NO_TOKEN;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(payload: unknown) => void>();
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => {
      onConnection('open', null);
      resolve();
    });
    socket.addEventListener('close', () => {
      onConnection('closed', lost);
      for (const p of pending.values()) p.reject(new Error(lost));
      pending.clear();
      reject(new Error(lost));
    });
  });
  opened.catch(() => undefined);
  socket.addEventListener('message', (message) => {
    let data: { id?: number | null; ok?: boolean; result?: unknown; error?: string; event?: unknown };
    try {
      data = JSON.parse(String(message.data)) as typeof data;
    } catch {
      return; // not ours to act on; the contract check would reject it anyway
    }
    if (data.event !== undefined) {
      for (const listener of listeners) listener(data.event);
      return;
    }
    const waiter = typeof data.id === 'number' ? pending.get(data.id) : undefined;
    if (!waiter) return;
    pending.delete(data.id!);
    if (data.ok) waiter.resolve(data.result);
    else waiter.reject(new Error(data.error ?? 'the request failed'));
  });
  let nextId = 1;
  return {
    async invoke(method: ServiceMethod, request: unknown) {
      await opened;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, request }));
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

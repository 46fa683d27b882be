// Both ends of the service across a process boundary: the host validates each request from an
// untrusted sender before calling the service; a front end validates each result and event before
// acting on it. Pure (zod only): Electron's main and preload, the web host and the renderer use it.
import { z } from 'zod';
import { compileCheck, REFUSED } from './compiled-check.js';
import {
  SERVICE_METHODS,
  ServiceEventSchema,
  WatchEventsMessageSchema,
  type HoldwatchService,
  type RequestOf,
  type ResultOf,
  type ServiceEvent,
  type ServiceMethod,
} from './service.js';
import {
  WATCH_EVENTS_PER_MESSAGE,
  WATCH_FIRST_MESSAGE_EVENTS,
  WatchColumnsError,
  decodeWatchColumns,
  encodeWatchColumns,
  type WatchColumns,
} from './watch-columns.js';
import type { WatchEvent } from './holders.js';

/** A payload that does not match the contract: rejected with this, never acted on. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
}

function check<T>(schema: z.ZodType<T, unknown>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ContractError(`${what}: ${z.prettifyError(parsed.error).split('\n').slice(0, 4).join('; ')}`);
  return parsed.data;
}

export function isServiceMethod(name: unknown): name is ServiceMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(SERVICE_METHODS, name);
}

/** What a host passes with a request besides it: a method that starts work it can end takes it as a second argument. */
export interface CallContext {
  /** Aborted when the sender is gone (its page closed): what the call still runs for it ends. */
  signal?: AbortSignal;
}

/** The host side: validates a request from an untrusted sender and calls the service. */
export async function dispatchRequest(service: HoldwatchService, method: unknown, request: unknown, context: CallContext = {}): Promise<unknown> {
  if (!isServiceMethod(method)) throw new ContractError(`unknown method ${JSON.stringify(method)?.slice(0, 80)}`);
  const schema: z.ZodType<unknown, unknown> = SERVICE_METHODS[method].request;
  const valid = check(schema, request, `${method} request`);
  const call = service[method] as (r: unknown, context: CallContext) => Promise<unknown>;
  const result = await call.call(service, valid, context);
  return result === undefined ? null : result;
}

/** Subscribes to every event stream of a service, as one stream of envelopes. */
export function subscribeAll(service: HoldwatchService, emit: (event: ServiceEvent) => void): () => void {
  const offs = [
    service.onWatchEvents((watchId, events) => {
      for (let from = 0, size = WATCH_FIRST_MESSAGE_EVENTS; from < events.length; from += size, size = Math.min(2 * size, WATCH_EVENTS_PER_MESSAGE))
        emit({ channel: 'watch', watchId, columns: encodeWatchColumns(events.slice(from, from + size)) });
    }),
    service.onWatchStatus((watchId, status) => emit({ channel: 'watch-status', watchId, status })),
    service.onRunEvent((runId, event) => emit({ channel: 'run', runId, event })),
    service.onOpenDirRequest((request) => emit({ channel: 'open-dir', request })),
  ];
  return () => offs.forEach((off) => off());
}

let checkWatchEvents: ReturnType<typeof compileCheck<typeof WatchEventsMessageSchema>> | null = null;

/**
 * Watch events, the stream that carries every holder, take the compiled check (compiled-check.ts);
 * the rest, and anything it refuses, go through zod, which names what is wrong.
 */
export function parseServiceEvent(value: unknown): ServiceEvent {
  if ((value as { channel?: unknown } | null)?.channel === 'watch') {
    checkWatchEvents ??= compileCheck(WatchEventsMessageSchema);
    const checked = checkWatchEvents(value);
    if (checked !== REFUSED) return checked;
  }
  return check(ServiceEventSchema, value, 'event');
}

/** The events a watch message carries; an index outside its table is the contract broken, as any other. */
export function watchEventsOf(columns: WatchColumns): WatchEvent[] {
  try {
    return decodeWatchColumns(columns);
  } catch (error) {
    if (error instanceof WatchColumnsError) throw new ContractError(`event: ${error.message}`);
    throw error;
  }
}

/** How a front end reaches the host: one request function and one event stream (IPC or WebSocket). */
export interface ServiceTransport {
  invoke(method: ServiceMethod, request: unknown): Promise<unknown>;
  /** Raw payloads; the client validates each. Returns the unsubscribe function. */
  onEvent(listener: (payload: unknown) => void): () => void;
}

/** The receiving side in a front end: a HoldwatchService whose every result and event is validated. */
export function serviceClient(transport: ServiceTransport, onInvalidEvent: (error: ContractError) => void): HoldwatchService {
  const call = async <M extends ServiceMethod>(method: M, request: RequestOf<M>): Promise<ResultOf<M>> =>
    check(SERVICE_METHODS[method].result as unknown as z.ZodType<ResultOf<M>, unknown>, await transport.invoke(method, request), `${method} result`);
  const listen =
    <A extends unknown[]>(pick: (e: ServiceEvent) => A | null) =>
    (listener: (...args: A) => void) =>
      transport.onEvent((payload) => {
        let args: A | null;
        try {
          args = pick(parseServiceEvent(payload));
        } catch (error) {
          onInvalidEvent(error as ContractError);
          return;
        }
        if (args) listener(...args);
      });
  return {
    scan: (r) => call('scan', r),
    startWatch: (r) => call('startWatch', r),
    stopWatch: (r) => call('stopWatch', r),
    startRun: (r) => call('startRun', r),
    stopRun: (r) => call('stopRun', r),
    getProcessDetails: (r) => call('getProcessDetails', r),
    endProcess: (r) => call('endProcess', r),
    closeHandle: (r) => call('closeHandle', r),
    captureLiveStack: (r) => call('captureLiveStack', r),
    getHolderStacks: (r) => call('getHolderStacks', r),
    exportReport: (r) => call('exportReport', r),
    revealPath: (r) => call('revealPath', r),
    listRecentDirs: () => call('listRecentDirs', undefined),
    dirToOpen: () => call('dirToOpen', undefined),
    defaultDir: () => call('defaultDir', undefined),
    launchDir: () => call('launchDir', undefined),
    listActiveRuns: () => call('listActiveRuns', undefined),
    attachRun: (r) => call('attachRun', r),
    elevateScanner: (r) => call('elevateScanner', r),
    onWatchEvents: listen((e) => (e.channel === 'watch' ? [e.watchId, watchEventsOf(e.columns)] : null)),
    onWatchStatus: listen((e) => (e.channel === 'watch-status' ? [e.watchId, e.status] : null)),
    onRunEvent: listen((e) => (e.channel === 'run' ? [e.runId, e.event] : null)),
    onOpenDirRequest: listen((e) => (e.channel === 'open-dir' ? [e.request] : null)),
  };
}

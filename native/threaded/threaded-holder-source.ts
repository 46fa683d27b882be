// A holder source whose scans run on a worker thread of this process. The Windows scan reads and
// parses the system handle table with synchronous calls (koffi): on the thread that owns a window
// (Electron's main process) every poll froze the app for as long. Here the owning thread only posts a
// call and receives the result. One owner: dispose() ends the thread, which disposes its source.
import { Worker } from 'node:worker_threads';
import type { PlatformName, ProcessInfo } from '../../contract/holders.js';
import { BadInputError, messageOf } from '../../core/errors.js';
import type { HolderSource, ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import type { ThreadCall, ThreadReply, ThreadStart } from './thread-messages.js';
import { unpackedUrl } from '../../core/asar-unpacked.js';
import { KoffiLoadGate } from '../koffi-load-gate.js';

type CallBody = ThreadCall extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never;

export class ThreadedHolderSource implements HolderSource {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private gone: string | null = null;
  private disposed = false;
  processExtras?: (pid: number, handles: readonly string[]) => Promise<ProcessExtras | null>;

  private constructor(
    readonly platform: PlatformName,
    private readonly worker: Worker,
    extras: boolean,
  ) {
    worker.on('message', (reply: ThreadReply) => this.onReply(reply));
    worker.on('error', (error: unknown) => this.onGone(`the scan thread failed: ${messageOf(error)}`));
    worker.on('exit', () => this.onGone('the scan thread ended'));
    if (extras) this.processExtras = (pid, handles) => this.call({ method: 'processExtras', pid, handles }) as Promise<ProcessExtras | null>;
  }

  /**
   * Starts the thread and resolves once its source is open (it throws there as openHolderSource would).
   * `signal`: the owner gives up the start (it is ending); the thread ends, never mid-way through a koffi load.
   */
  static start(start: Omit<ThreadStart, 'koffiGate'>, signal?: AbortSignal): Promise<ThreadedHolderSource> {
    const gate = KoffiLoadGate.create();
    const workerData: ThreadStart = { ...start, koffiGate: gate.shared };
    const worker = new Worker(unpackedUrl(new URL('./holder-thread.js', import.meta.url)), { workerData });
    return new Promise((resolve, reject) => {
      const fail = (error: Error) => {
        signal?.removeEventListener('abort', abort);
        // Ended while koffi loads in it, Node aborts the whole process (koffi-load-gate.ts).
        void gate.close().then(() => worker.terminate());
        reject(error);
      };
      const abort = () => fail(new Error('the scan thread was ended before its source opened'));
      if (signal?.aborted) return abort();
      signal?.addEventListener('abort', abort, { once: true });
      worker.once('error', fail);
      worker.once('exit', (code) => fail(new Error(`the scan thread exited (${code}) before its source opened`)));
      worker.once('message', (reply: ThreadReply) => {
        worker.off('error', fail);
        worker.removeAllListeners('exit');
        signal?.removeEventListener('abort', abort);
        if ('ready' in reply) resolve(new ThreadedHolderSource(reply.platform, worker, reply.extras));
        else fail(new Error('the scan thread spoke before it was ready'));
      });
    });
  }

  resolveWatchDir(input: string): Promise<WatchDir> {
    return this.call({ method: 'resolveWatchDir', input }) as Promise<WatchDir>;
  }

  scan(request: ScanRequest): Promise<ScanResult> {
    return this.call({ method: 'scan', request }) as Promise<ScanResult>;
  }

  processInfo(pid: number): Promise<ProcessInfo | null> {
    return this.call({ method: 'processInfo', pid }) as Promise<ProcessInfo | null>;
  }

  /** The thread disposes its source, then ends. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.gone !== null) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ method: 'dispose' });
    await exited;
  }

  private call(body: CallBody): Promise<unknown> {
    if (this.gone !== null) return Promise.reject(new Error(this.gone));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id });
    });
  }

  private onReply(reply: ThreadReply): void {
    if ('ready' in reply) return;
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if ('error' in reply) pending.reject(reply.error.badInput ? new BadInputError(reply.error.message) : new Error(reply.error.message));
    else pending.resolve(reply.value);
  }

  private onGone(reason: string): void {
    if (this.gone !== null) return;
    this.gone = reason;
    for (const pending of this.pending.values()) pending.reject(new Error(reason));
    this.pending.clear();
  }
}

// One watch's scanner: the HolderSource its Watcher polls, which can move from the host into an
// elevated worker ("Scan as administrator") and back (the worker died) without the Watcher noticing.
// The Watcher keeps its holders; holder identities (pid, start time) are the same from either side,
// so a switch adds the newly visible holders and drops none. Owns whichever source is current.
import type { ProcessInfo } from '../../contract/holders.js';
import type { HandleTarget } from '../../core/close-policy.js';
import type { ScannerStatus } from '../../contract/service.js';
import type { HolderSource, ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import { SerialQueue } from '../../core/serial-queue.js';
import { ElevationDeclinedError, type RemoteHolderSource } from '../../native/remote/remote-holder-source.js';
import { messageOf } from '../../core/errors.js';

export interface WatchScannerOptions {
  /** A fresh in-process source (the fallback when the worker dies). */
  openInProcess: () => Promise<HolderSource>;
  /** Starts the worker; null when this host cannot offer it (then `hint` says what to do instead). */
  startWorker: (() => Promise<RemoteHolderSource>) | null;
  hint: string | null;
  onStatus: (status: ScannerStatus) => void;
}

export class WatchScanner implements HolderSource {
  private readonly queue = new SerialQueue();
  private worker: RemoteHolderSource | null = null;
  private disposed = false;
  private state: ScannerStatus;

  constructor(
    private current: HolderSource,
    private readonly options: WatchScannerOptions,
  ) {
    this.state = { mode: 'in-process', elevated: false, canElevate: options.startWorker !== null, hint: options.hint, message: null };
  }

  get platform() {
    return this.current.platform;
  }

  get status(): ScannerStatus {
    return this.state;
  }

  /** The worker's pid while scans run there. */
  get workerPid(): number | null {
    return this.worker?.workerPid ?? null;
  }

  /**
   * Always in the host: the elevated worker starts in System32 with its own environment and without
   * the user's mapped drives, so a relative path, `%TEMP%`-based input or `Z:\` would resolve there
   * to another directory, or to none.
   */
  resolveWatchDir(input: string): Promise<WatchDir> {
    return this.queue.run(async () => {
      if (!this.worker) return this.current.resolveWatchDir(input);
      const host = await this.options.openInProcess();
      try {
        return await host.resolveWatchDir(input);
      } finally {
        await host.dispose();
      }
    });
  }

  scan(request: ScanRequest): Promise<ScanResult> {
    return this.queue.run(() => this.withFallback((source) => source.scan(request)));
  }

  processInfo(pid: number): Promise<ProcessInfo | null> {
    return this.queue.run(() => this.withFallback((source) => source.processInfo(pid)));
  }

  /** null from a source without it, as the details panel reads a missing processExtras. */
  processExtras(pid: number, handles: readonly string[]): Promise<ProcessExtras | null> {
    return this.queue.run(() => this.withFallback((source) => source.processExtras?.(pid, handles) ?? Promise.resolve(null)));
  }

  /** Through the elevated worker while scans run there (its rights reach other users' processes); null otherwise: the host closes it. */
  closeHandleInWorker(target: HandleTarget, path: string): Promise<void> | null {
    return this.worker ? this.queue.run(() => this.worker!.closeHandle(target, path)) : null;
  }

  /** Starts the worker (scans go on in the host meanwhile), then moves scans to it. `denied`: for the message. */
  async elevate(denied: number): Promise<ScannerStatus> {
    if (!this.options.startWorker || this.state.mode !== 'in-process' || this.disposed) return this.state;
    this.update({ mode: 'starting', message: null });
    let worker: RemoteHolderSource;
    try {
      worker = await this.options.startWorker();
    } catch (error) {
      this.update({ mode: 'in-process', message: elevationFailureMessage(error, denied) });
      return this.state;
    }
    await this.queue.run(async () => {
      if (this.disposed) return worker.dispose();
      const previous = this.current;
      this.current = this.worker = worker;
      worker.onDidClose((reason) => void this.queue.run(() => this.fallBack(worker, reason)));
      await previous.dispose();
    });
    this.update({
      mode: 'worker',
      elevated: worker.elevated,
      canElevate: false,
      message: worker.elevated ? null : 'The scanner runs in a separate process, but without administrator rights: denied processes stay unknown.',
    });
    return this.state;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.queue.run(() => this.current.dispose());
  }

  /** Runs `call` on the current source; if that is the worker and it is gone, falls back and runs it in the host. */
  private async withFallback<T>(call: (source: HolderSource) => Promise<T>): Promise<T> {
    const source = this.current;
    try {
      return await call(source);
    } catch (error) {
      const worker = this.worker;
      if (!worker || source !== worker || this.disposed) throw error;
      await this.fallBack(worker, messageOf(error));
      return call(this.current);
    }
  }

  /** Inside the queue: the worker stopped; scans go back to a fresh in-process source, and the status says so. */
  private async fallBack(worker: RemoteHolderSource, reason: string): Promise<void> {
    if (this.worker !== worker || this.disposed) return;
    this.worker = null;
    this.current = await this.options.openInProcess();
    await worker.dispose();
    this.update({
      mode: 'in-process',
      elevated: false,
      canElevate: this.options.startWorker !== null,
      message: `The elevated scanner stopped (${reason}); scanning goes on without administrator rights. Click "Scan as administrator" to start it again.`,
    });
  }

  private update(change: Partial<ScannerStatus>): void {
    this.state = { ...this.state, ...change };
    if (!this.disposed) this.options.onStatus(this.state);
  }
}

/** The sentence the UI shows when the worker could not be started; a declined prompt names what stays unknown. */
export function elevationFailureMessage(error: unknown, denied: number): string {
  if (error instanceof ElevationDeclinedError)
    return `Elevation was declined; holders in ${denied} ${denied === 1 ? 'process' : 'processes'} stay unknown (denied). Click "Scan as administrator" to be asked again.`;
  const reason = messageOf(error);
  return `The elevated scanner could not start (${reason}); scanning goes on without administrator rights. Try again, or start holdwatch as administrator.`;
}

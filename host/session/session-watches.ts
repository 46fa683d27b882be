// The watches of a host session. Each has its own holder source (a source's scan pool serves one scan
// at a time: concurrent scans on one pool receive each other's results) behind a WatchScanner, which
// can restart it as a separate, elevated worker ("Scan as administrator"); each has its Watcher and
// its last status. Events and statuses go out on the two emitters.
import type { WatchEvent } from '../../contract/holders.js';
import type { ScannerStatus, WatchRequestDto, WatchStatus } from '../../contract/service.js';
import { DisposableStore } from '../../core/disposable-store.js';
import { Emitter } from '../../core/emitter.js';
import { BadInputError, messageOf } from '../../core/errors.js';
import type { WatchDir } from '../../core/platform.js';
import { Watcher } from '../../core/watch.js';
import { openHolderSource, runsElevated, scannerWorkerLauncher } from '../../native/index.js';
import { RemoteHolderSource } from '../../native/remote/remote-holder-source.js';
import { makePrivateDir } from '../private-files.js';
import type { RecentDirs } from '../recent-dirs.js';
import { resolveAndStepOut, type WorkingDirectory } from '../resolve-dir.js';
import { WatchScanner, type WatchScannerOptions } from '../scanner/watch-scanner.js';
import { watchedDirsGuard } from '../watched-dir-identity.js';
import { systemClock } from '../system-clock.js';
import { openWatchPacing } from '../watch-pacing.js';
import { WatchRetry } from '../watch-retry.js';

export interface ScanWorkerLaunch {
  /** The program and the arguments before `scan-worker` (node and bin/holdwatch.js). */
  program: string;
  prefixArgs: string[];
  /** Where the worker's unix socket goes off Windows (the data dir). */
  socketDir: string;
  /** Offer it off Windows too, the worker started with the host's own rights (not elevated): tests only. */
  sameRights?: boolean;
}

export interface SessionWatchesOptions {
  recentDirs: RecentDirs;
  /** How to start `holdwatch scan-worker`; absent: not offered, the hint says what to do. */
  scanWorker?: ScanWorkerLaunch;
  workingDirectory: WorkingDirectory;
  /** A listener of events or statuses threw (see HostSessionOptions). */
  onListenerError: (error: unknown) => void;
}

interface LiveWatch {
  source: WatchScanner;
  /** The watcher, its pacing and its scanner, released in that order. */
  owned: DisposableStore;
  dirs: readonly WatchDir[];
  last: WatchStatus;
}

type ScannerPlan = Pick<WatchScannerOptions, 'startWorker' | 'hint'>;

/**
 * This process's own scans (before and after a scanner worker): off the calling thread, which in the
 * app is Electron's main process (on Windows a full scan is synchronous calls for as long as it takes).
 */
const IN_PROCESS = { walkThread: 'worker', offMainThread: true } as const;

export class SessionWatches {
  readonly events = new Emitter<[string, readonly WatchEvent[]]>((error) => this.options.onListenerError(error));
  readonly statuses = new Emitter<[string, WatchStatus]>((error) => this.options.onListenerError(error));
  private readonly watches = new Map<string, LiveWatch>();
  private scannerPlan: Promise<ScannerPlan> | null = null;
  private nextWatch = 1;

  constructor(private readonly options: SessionWatchesOptions) {}

  async start({ dirs, intervalMs }: WatchRequestDto): Promise<{ watchId: string }> {
    const source = await openHolderSource(IN_PROCESS);
    const resolved = [];
    try {
      for (const dir of dirs) resolved.push(await resolveAndStepOut(source, dir, this.options.workingDirectory));
    } catch (error) {
      await source.dispose();
      throw error;
    }
    for (const dir of resolved) this.options.recentDirs.remember(dir.display);
    const watchId = `w${this.nextWatch++}`;
    let scans = 0;
    const scanner = new WatchScanner(source, {
      ...(await this.planScanner()),
      openInProcess: () => openHolderSource(IN_PROCESS),
      onStatus: (status) => this.emitStatus(watchId, { scanner: status }),
    });
    const fullIntervalMs = intervalMs ?? 500;
    const pacing = await openWatchPacing(resolved, fullIntervalMs);
    const retry = new WatchRetry({
      onRetrying: (sentence) => this.emitStatus(watchId, { error: null, retrying: sentence }),
      // Each full poll's status sets `retrying` back to null.
      onRecovered: () => undefined,
      onStopped: (error) => {
        void this.stop(watchId);
        this.statuses.emit(watchId, {
          scans,
          holders: 0,
          denied: 0,
          error: `The watch stopped: ${messageOf(error)}. Start it again; if it keeps failing, run \`holdwatch scan <dir>\` in a terminal to see the error.`,
        });
      },
    });
    const watcher: Watcher = new Watcher({
      source: scanner,
      dirs: resolved,
      clock: systemClock,
      fullIntervalMs,
      ...pacing.options,
      beforePoll: watchedDirsGuard(resolved),
      onPoll: ({ events, result, full }) => {
        retry.polled();
        if (events.length > 0) this.events.emit(watchId, events);
        if (full)
          this.emitStatus(watchId, {
            scans: ++scans,
            holders: watcher.current().length,
            denied: result.denied.length,
            protectedDenied: result.denied.filter((d) => d.protected).length,
            error: null,
            retrying: null,
            scanner: scanner.status,
          });
      },
      ...retry.watcherOptions,
    });
    retry.attach(watcher);
    const owned = new DisposableStore();
    owned.add(scanner);
    owned.add(pacing);
    owned.add(watcher);
    this.watches.set(watchId, {
      source: scanner,
      owned,
      dirs: resolved,
      last: { scans: 0, holders: 0, denied: 0, error: null, scanner: scanner.status },
    });
    watcher.start();
    return { watchId };
  }

  async stop(watchId: string): Promise<void> {
    const watch = this.watches.get(watchId);
    this.watches.delete(watchId);
    if (!watch) return;
    await watch.owned.dispose();
  }

  async elevate(watchId: string): Promise<ScannerStatus> {
    const watch = this.watches.get(watchId);
    if (!watch) throw new BadInputError(`no watch ${watchId} in this session`);
    return watch.source.elevate(watch.last.denied);
  }

  /** Every dir a watch of this session watches. */
  dirs(): WatchDir[] {
    return [...this.watches.values()].flatMap((w) => w.dirs);
  }

  /** The watches' scanner workers: holdwatch's own too, never ended from the UI. */
  scannerPids(): number[] {
    return [...this.watches.values()].flatMap((w) => (w.source.workerPid === null ? [] : [w.source.workerPid]));
  }

  /** A watch's scanner that runs elevated, if one does. */
  elevatedScanner(): WatchScanner | null {
    return [...this.watches.values()].find((w) => w.source.status.mode === 'worker' && w.source.status.elevated)?.source ?? null;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.watches.keys()].map((id) => this.stop(id)));
  }

  /** Merges into the watch's last status and sends it: scanner changes go out between polls too. */
  private emitStatus(watchId: string, change: Partial<WatchStatus>): void {
    const watch = this.watches.get(watchId);
    const status = { ...(watch?.last ?? { scans: 0, holders: 0, denied: 0, error: null }), ...change };
    if (watch) watch.last = status;
    this.statuses.emit(watchId, status);
  }

  /** Whether "Scan as administrator" is offered, decided once per session; else the next step to show. */
  private planScanner(): Promise<ScannerPlan> {
    this.scannerPlan ??= (async () => {
      const launch = this.options.scanWorker;
      if (launch?.sameRights) return { startWorker: () => startScanWorker(launch), hint: null };
      if (await runsElevated()) return { startWorker: null, hint: null };
      if (process.platform !== 'win32') return { startWorker: null, hint: 'Run `sudo holdwatch ui` to see them.' };
      if (!launch) return { startWorker: null, hint: 'Start holdwatch as administrator to see them.' };
      return { startWorker: () => startScanWorker(launch), hint: null };
    })();
    return this.scannerPlan;
  }
}

async function startScanWorker(launch: ScanWorkerLaunch): Promise<RemoteHolderSource> {
  if (process.platform !== 'win32') makePrivateDir(launch.socketDir);
  return RemoteHolderSource.start({
    launch: await scannerWorkerLauncher(launch.program, launch.prefixArgs, { sameRights: launch.sameRights }),
    socketDir: launch.socketDir,
  });
}

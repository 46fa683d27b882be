// The service both desktop hosts serve (Electron over IPC, `holdwatch ui` over a WebSocket). A facade:
// the watches (session-watches.ts), the runs started or followed (session-runs.ts), process details
// (process-details.ts) and live stacks (live-stack-capture.ts) each live in their own module; this
// owns them and the one holder source for one-off questions, and closes all of it in dispose().
import { tmpdir } from 'node:os';
import type { HolderStacks } from '../../contract/journal.js';
import type { ProcessDetails } from '../../contract/details.js';
import type { Snapshot, WatchEvent } from '../../contract/holders.js';
import type { CapturedLiveStack } from '../../contract/live-stack.js';
import type { CallContext } from '../../contract/service-client.js';
import type { ActiveRun, RunEvent } from '../../contract/runs.js';
import type {
  CloseHandleRequestDto,
  DirToOpen,
  EndProcessRequestDto,
  ExportedReport,
  ExportRequestDto,
  HoldwatchService,
  LiveStackRequestDto,
  RunRequestDto,
  ScannerStatus,
  ScanRequestDto,
  WatchRequestDto,
  WatchStatus,
} from '../../contract/service.js';
import { DisposableStore } from '../../core/disposable-store.js';
import { Emitter } from '../../core/emitter.js';
import { BadInputError } from '../../core/errors.js';
import { formatLiveStack } from '../../core/live-stack.js';
import type { HolderSource, ProcessSource } from '../../core/platform.js';
import { takeSnapshot } from '../../core/snapshot.js';
import { closeHandleIfSame, isJobStopped, openHolderSource, openProcessSource } from '../../native/index.js';
import type { RecentDirs } from '../recent-dirs.js';
import { resolveAndStepOut, type WorkingDirectory } from '../resolve-dir.js';
import { revealInFileManager } from '../reveal.js';
import { elapsedMs, systemClock } from '../system-clock.js';
import { captureLiveStackInWorker, dumpsDirOutside } from './live-stack-capture.js';
import { endProcess, isSameProcess, processFacts, readProcessDetails, type ProcessFacts } from './process-details.js';
import { SessionRuns } from './session-runs.js';
import { SessionWatches, type ScanWorkerLaunch } from './session-watches.js';

export type { ScanWorkerLaunch };

export interface HostSessionOptions {
  recentDirs: RecentDirs;
  /** holdwatch's own pids (the host, and Electron's main when it hosts): never ended. */
  ownPids: readonly number[];
  /** How to start `holdwatch scan-worker` ("Scan as administrator"); absent: not offered, the hint says what to do. */
  scanWorker?: ScanWorkerLaunch;
  /** holdwatch's data dir (journals, live-run markers, minidumps), as the front end found it (dataDirOf). */
  dataDir: string;
  /** The environment a run started here inherits, as a shell would pass the host's own. */
  env: NodeJS.ProcessEnv;
  /** The host process's current directory (`process`): stepped out of every watched dir. */
  workingDirectory: WorkingDirectory;
  /** The directory the front end was started on, already checked (checkDirToOpen); the renderer opens onto it. */
  dirToOpen?: DirToOpen | null;
  /** A listener (a window, a socket) threw: the front end says so; the other listeners still get the event. */
  onListenerError: (error: unknown) => void;
}

export class HostSession implements HoldwatchService {
  /** For one-off requests (scan, process facts): one thread, so its walks never overlap. */
  private source: Promise<HolderSource> | null = null;
  private processes: Promise<ProcessSource> | null = null;
  private readonly watches: SessionWatches;
  private readonly runs: SessionRuns;
  /** The watches, then the runs, then the one-off source: released in that order. */
  private readonly owned = new DisposableStore();
  private latestDirToOpen: DirToOpen | null;
  private readonly dirRequests: Emitter<[DirToOpen]>;
  /** Taken before any watch can step the host out of a watched dir: the user's "here", not the root. */
  private readonly startedIn: string;

  constructor(private readonly options: HostSessionOptions) {
    this.latestDirToOpen = options.dirToOpen ?? null;
    this.startedIn = options.workingDirectory.cwd();
    this.dirRequests = new Emitter(options.onListenerError);
    this.watches = new SessionWatches(options);
    this.runs = new SessionRuns({ ...options, launchDir: this.startedIn, holders: () => this.holders() });
    this.owned.defer(async () => {
      const source = this.source;
      this.source = null;
      if (source) await (await source).dispose();
    });
    this.owned.add(this.runs);
    this.owned.add(this.watches);
  }

  private holders(): Promise<HolderSource> {
    this.source ??= openHolderSource({ walkThread: 'caller' });
    return this.source;
  }

  async scan({ dirs }: ScanRequestDto): Promise<Snapshot> {
    if (dirs.length !== 1) throw new BadInputError('scan takes one directory');
    const source = await this.holders();
    return takeSnapshot(source, await resolveAndStepOut(source, dirs[0]!, this.options.workingDirectory), systemClock, elapsedMs);
  }

  startWatch(request: WatchRequestDto): Promise<{ watchId: string }> {
    return this.watches.start(request);
  }

  stopWatch(watchId: string): Promise<void> {
    return this.watches.stop(watchId);
  }

  elevateScanner(watchId: string): Promise<ScannerStatus> {
    return this.watches.elevate(watchId);
  }

  onWatchEvents(listener: (watchId: string, events: readonly WatchEvent[]) => void): () => void {
    return this.watches.events.on(listener);
  }

  onWatchStatus(listener: (watchId: string, status: WatchStatus) => void): () => void {
    return this.watches.statuses.on(listener);
  }

  onRunEvent(listener: (runId: string, event: RunEvent) => void): () => void {
    return this.runs.events.on(listener);
  }

  /** Resolves once the command is running; a bad dir or an unknown command rejects instead. */
  startRun(request: RunRequestDto): Promise<{ runId: string }> {
    return this.runs.start(request);
  }

  async stopRun(runId: string): Promise<void> {
    this.runs.stop(runId);
  }

  listActiveRuns(): Promise<ActiveRun[]> {
    return this.runs.listActive();
  }

  attachRun(runId: string): Promise<void> {
    return this.runs.attach(runId);
  }

  async getHolderStacks(request: { runId: string; key: string }): Promise<HolderStacks | null> {
    return this.runs.holderStacks(request);
  }

  async exportReport(request: ExportRequestDto): Promise<ExportedReport> {
    return this.runs.exportReport(request);
  }

  async getProcessDetails(pid: number): Promise<ProcessDetails | null> {
    const source = await this.detailsSource();
    const facts = await this.factsOf(source, pid);
    if (!facts) return null;
    const processes = await (this.processes ??= openProcessSource());
    return readProcessDetails(facts, { source, processes, dirs: this.watchedDirs(), membershipOf: (p, at) => this.runs.membershipOf(p, at) });
  }

  async endProcess({ pid, startedAtMs }: EndProcessRequestDto): Promise<void> {
    endProcess(await this.factsOf(await this.detailsSource(), pid), pid, startedAtMs);
  }

  /**
   * Where process details are read: through an elevated watch's worker if there is one (another user's
   * process needs its rights), else in the host. The checks are the same either side
   * (native/win32/close-handle.ts); Linux refuses, saying why.
   */
  async closeHandle({ pid, startedAtMs, handle, path }: CloseHandleRequestDto): Promise<void> {
    const target = { pid, startedAtMs, handle, dirs: this.watchedDirs(), ownPids: [...this.options.ownPids, ...this.watches.scannerPids()] };
    const viaWorker = this.watches.elevatedScanner()?.closeHandleInWorker(target, path);
    await (viaWorker ?? closeHandleIfSame(target, path, (await this.holders()).platform));
  }

  /** Refuses a reused pid; the capture runs in a child process with a deadline (see live-stack-capture.ts). */
  /** `context.signal`: the asking page is gone (CallContext), and the capture ends with its debugger. */
  async captureLiveStack({ pid, startedAtMs }: LiveStackRequestDto, context: CallContext = {}): Promise<CapturedLiveStack> {
    const source = await this.holders();
    const info = await source.processInfo(pid);
    if (!info || !isSameProcess(info, startedAtMs)) throw new BadInputError(`process ${pid} has already exited`);
    // Only Windows writes (a minidump); on Linux the tools print and nothing lands on disk.
    if (source.platform === 'win32') dumpsDirOutside(this.options.dataDir, this.watchedDirs());
    // A process stopped before the capture (Ctrl-Z, SIGSTOP) stays stopped: that stop is the user's.
    const stoppedBefore = await isJobStopped(pid);
    const result = await captureLiveStackInWorker(pid, startedAtMs, {
      dataDir: this.options.dataDir,
      env: this.options.env,
      ...(context.signal ? { signal: context.signal } : {}),
      ...(stoppedBefore ? {} : { onEnded: () => this.resumeIfStopped(pid, startedAtMs) }),
    });
    return result.kind === 'stack' ? { ...result, text: formatLiveStack(result) } : result;
  }

  /** SIGCONT to the process seen (a debugger ended mid-walk leaves it stopped); nothing on Windows or once the pid is another's. */
  private async resumeIfStopped(pid: number, startedAtMs: number): Promise<void> {
    if (process.platform === 'win32') return;
    const info = await (await this.holders()).processInfo(pid);
    if (info && isSameProcess(info, startedAtMs)) process.kill(pid, 'SIGCONT');
  }

  async revealPath(path: string): Promise<void> {
    await revealInFileManager(path);
  }

  async listRecentDirs(): Promise<string[]> {
    return this.options.recentDirs.list();
  }

  /** The latest directory asked for: a window (re)loaded after a second instance opens onto that one. */
  async dirToOpen(): Promise<DirToOpen | null> {
    return this.latestDirToOpen;
  }

  /** A second instance named a directory (Electron's second-instance): open windows turn to it. */
  requestOpenDir(request: DirToOpen): void {
    this.latestDirToOpen = request;
    this.dirRequests.emit(request);
  }

  onOpenDirRequest(listener: (request: DirToOpen) => void): () => void {
    return this.dirRequests.on(listener);
  }

  async defaultDir(): Promise<string> {
    return tmpdir();
  }

  async launchDir(): Promise<string> {
    return this.startedIn;
  }

  dispose(): Promise<void> {
    return this.owned.dispose();
  }

  private factsOf(source: HolderSource, pid: number): Promise<ProcessFacts | null> {
    return processFacts(source, pid, [...this.options.ownPids, ...this.watches.scannerPids()]);
  }

  /**
   * Where process details are read: an elevated watch's scanner if there is one. The session's own
   * source keeps the host's rights, so after "Scan as administrator" another user's process would show
   * an unreadable cwd and no holdings in the panel while the watch lists them.
   */
  private detailsSource(): Promise<HolderSource> {
    const elevated = this.watches.elevatedScanner();
    return elevated ? Promise.resolve(elevated) : this.holders();
  }

  /** Every dir this session watches, its watches' and its runs'. */
  private watchedDirs() {
    return [...this.watches.dirs(), ...this.runs.dirs()];
  }
}

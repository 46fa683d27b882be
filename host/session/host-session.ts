// The service both desktop hosts serve (Electron over IPC, `holdwatch ui` over a WebSocket): watches,
// runs started from the UI, process details, ending a process, exports. Every watch and run gets its
// own holder source (a source's scan pool serves one scan at a time: concurrent scans on one pool
// receive each other's results); all are owned here and closed by dispose().
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessDetails, RunMembershipDto } from '../../contract/details.js';
import type { ProcessInfo, Snapshot, WatchEvent } from '../../contract/holders.js';
import type { CapturedLiveStack } from '../../contract/live-stack.js';
import type { ActiveRun, RunEvent, RunRecord } from '../../contract/runs.js';
import type {
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
import { refusalToEnd } from '../../core/end-policy.js';
import { BadInputError } from '../../core/errors.js';
import { formatLiveStack } from '../../core/live-stack.js';
import { shareModeOf } from '../../core/handle-access.js';
import type { HolderSource, ProcessSource, WatchDir } from '../../core/platform.js';
import { RUN_TAG_VARIABLE } from '../../core/run/membership.js';
import type { JournalEntry } from '../../contract/journal.js';
import type { RunSupervisor } from '../../core/run/supervisor.js';
import { takeSnapshot } from '../../core/snapshot.js';
import { Watcher } from '../../core/watch.js';
import { openHolderSource, openProcessSource, runsElevated, scannerWorkerLauncher } from '../../native/index.js';
import { RemoteHolderSource } from '../../native/remote/remote-holder-source.js';
import { runsPathIn } from '../data-dir.js';
import { FollowedRun } from '../run/followed-run.js';
import { isRunning, listLiveRuns, toActiveRun } from '../run/live-runs.js';
import { captureLiveStackInWorker, dumpsDirOutside } from './live-stack-capture.js';
import { resolveAndStepOut, type WorkingDirectory } from '../resolve-dir.js';
import { renderReport, reportOptions } from '../run/run-reports.js';
import { newRunId, superviseRun } from '../run/supervised-run.js';
import { elapsedMs, systemClock } from '../system-clock.js';
import type { RecentDirs } from '../recent-dirs.js';
import { revealInFileManager } from '../reveal.js';
import { Emitter } from '../../core/emitter.js';
import { WatchScanner, type WatchScannerOptions } from '../scanner/watch-scanner.js';

/** The whole record is sent at most this often while a run goes (each failure and the end at once). */
const RECORD_THROTTLE_MS = 300;
const MAX_ANCESTRY = 64;

/** The record so far, and one holder of it by journal key: a run's supervisor, or the recorder of a terminal run followed. */
// A followed terminal run has no supervisor here, so no live membership: its details say so by omission.
type RecordSource = Pick<RunSupervisor, 'record' | 'attributedHolder'> & Partial<Pick<RunSupervisor, 'membershipOf'>>;

interface SessionRun {
  stop: (() => void) | null;
  supervisor: RecordSource | null;
  record: RunRecord | null;
  /** A terminal run this session follows (attachRun). */
  followed?: FollowedRun;
  /** Resolved before the command starts; a minidump is never written under them. */
  dirs: readonly WatchDir[];
}

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
}

export interface ScanWorkerLaunch {
  /** The program and the arguments before `scan-worker` (node and bin/holdwatch.js). */
  program: string;
  prefixArgs: string[];
  /** Where the worker's unix socket goes off Windows (the data dir). */
  socketDir: string;
  /** Test only: offer it off Windows too, the worker started with the host's own rights (not elevated). */
  sameRights?: boolean;
}

export class HostSession implements HoldwatchService {
  /** For one-off requests (scan, process facts): one thread, so its walks never overlap. */
  private source: Promise<HolderSource> | null = null;
  private readonly watches = new Map<string, { watcher: Watcher; source: WatchScanner; dirs: readonly WatchDir[]; last: WatchStatus }>();
  private processes: Promise<ProcessSource> | null = null;
  private scannerPlan: Promise<Pick<WatchScannerOptions, 'startWorker' | 'hint'>> | null = null;
  private readonly runs = new Map<string, SessionRun>();
  private readonly watchEvents = new Emitter<[string, WatchEvent]>();
  private readonly watchStatus = new Emitter<[string, WatchStatus]>();
  private readonly runEvents = new Emitter<[string, RunEvent]>();
  private nextWatch = 1;
  private disposed = false;

  constructor(private readonly options: HostSessionOptions) {}

  private holders(): Promise<HolderSource> {
    this.source ??= this.openSource(1);
    return this.source;
  }

  private openSource(threads: number): Promise<HolderSource> {
    return openHolderSource({ threads });
  }

  async scan({ dirs }: ScanRequestDto): Promise<Snapshot> {
    if (dirs.length !== 1) throw new BadInputError('scan takes one directory');
    const source = await this.holders();
    return takeSnapshot(source, await resolveAndStepOut(source, dirs[0]!, this.options.workingDirectory), systemClock, elapsedMs);
  }

  async startWatch({ dirs, intervalMs }: WatchRequestDto): Promise<{ watchId: string }> {
    const source = await this.openSource(2);
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
      openInProcess: () => this.openSource(2),
      onStatus: (status) => this.emitWatchStatus(watchId, { scanner: status }),
    });
    const watcher: Watcher = new Watcher({
      source: scanner,
      dirs: resolved,
      clock: systemClock,
      fullIntervalMs: intervalMs ?? 500,
      onPoll: ({ events, result, full }) => {
        for (const event of events) this.watchEvents.emit(watchId, event);
        if (full)
          this.emitWatchStatus(watchId, {
            scans: ++scans,
            holders: watcher.current().length,
            denied: result.denied.length,
            error: null,
            scanner: scanner.status,
          });
      },
      onError: (error) => {
        void this.stopWatch(watchId);
        this.watchStatus.emit(watchId, {
          scans,
          holders: 0,
          denied: 0,
          error: `The watch stopped: ${messageOf(error)}. Start it again; if it keeps failing, run \`holdwatch scan <dir>\` in a terminal to see the error.`,
        });
      },
    });
    this.watches.set(watchId, { watcher, source: scanner, dirs: resolved, last: { scans: 0, holders: 0, denied: 0, error: null, scanner: scanner.status } });
    watcher.start();
    return { watchId };
  }

  async stopWatch(watchId: string): Promise<void> {
    const watch = this.watches.get(watchId);
    this.watches.delete(watchId);
    if (!watch) return;
    watch.watcher.dispose();
    await watch.source.dispose();
  }

  async elevateScanner(watchId: string): Promise<ScannerStatus> {
    const watch = this.watches.get(watchId);
    if (!watch) throw new BadInputError(`no watch ${watchId} in this session`);
    return watch.source.elevate(watch.last.denied);
  }

  /** The watches' scanner workers: holdwatch's own too, never ended from the UI. */
  private scannerPids(): number[] {
    return [...this.watches.values()].flatMap((w) => (w.source.workerPid === null ? [] : [w.source.workerPid]));
  }

  /** Merges into the watch's last status and sends it: scanner changes go out between polls too. */
  private emitWatchStatus(watchId: string, change: Partial<WatchStatus>): void {
    const watch = this.watches.get(watchId);
    const status = { ...(watch?.last ?? { scans: 0, holders: 0, denied: 0, error: null }), ...change };
    if (watch) watch.last = status;
    this.watchStatus.emit(watchId, status);
  }

  /** Whether "Scan as administrator" is offered, decided once per session; else the next step to show. */
  private planScanner(): Promise<Pick<WatchScannerOptions, 'startWorker' | 'hint'>> {
    this.scannerPlan ??= (async () => {
      const launch = this.options.scanWorker;
      if (launch?.sameRights) return { startWorker: () => this.startScanWorker(launch), hint: null };
      if (await runsElevated()) return { startWorker: null, hint: null };
      if (process.platform !== 'win32') return { startWorker: null, hint: 'Run `sudo holdwatch ui` to see them.' };
      if (!launch) return { startWorker: null, hint: 'Start holdwatch as administrator to see them.' };
      return { startWorker: () => this.startScanWorker(launch), hint: null };
    })();
    return this.scannerPlan;
  }

  private async startScanWorker(launch: ScanWorkerLaunch): Promise<RemoteHolderSource> {
    if (process.platform !== 'win32') mkdirSync(launch.socketDir, { recursive: true });
    return RemoteHolderSource.start({
      launch: await scannerWorkerLauncher(launch.program, launch.prefixArgs, { sameRights: launch.sameRights }),
      socketDir: launch.socketDir,
    });
  }

  onWatchEvent(listener: (watchId: string, event: WatchEvent) => void): () => void {
    return this.watchEvents.on(listener);
  }

  onWatchStatus(listener: (watchId: string, status: WatchStatus) => void): () => void {
    return this.watchStatus.on(listener);
  }

  onRunEvent(listener: (runId: string, event: RunEvent) => void): () => void {
    return this.runEvents.on(listener);
  }

  /** Resolves once the command is running; a bad dir or an unknown command rejects instead. */
  async startRun({ command, cwd, dirs, env }: RunRequestDto): Promise<{ runId: string }> {
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new BadInputError(`the working directory ${cwd} does not exist`);
    const runId = newRunId();
    const { run, emit, onEntry, end } = this.trackRun(runId);
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
    let spawned!: () => void;
    const running = new Promise<void>((resolve) => (spawned = resolve));
    const done = superviseRun({
      command,
      cwd,
      watch: dirs,
      env: { ...this.options.env, ...env },
      dataDir: this.options.dataDir,
      runId,
      checkDirs: (resolved) => (run.dirs = resolved),
      io: {
        stdin: 'ignore',
        output: (stream, chunk) => emit({ type: 'output', stream, text: decoders[stream].decode(chunk, { stream: true }) }),
        userSeesTerminal: false,
        forwardSignals: false,
      },
      onSpawned: ({ stop }) => {
        run.stop = stop;
        spawned();
      },
      onEntry,
      onError: (error) => emit({ type: 'output', stream: 'stderr', text: `holdwatch: ${messageOf(error)}\n` }),
    });
    done.then(
      ({ record, exitCode }) => end({ exitCode, record, error: null }),
      (error: unknown) => end({ exitCode: null, record: run.supervisor?.record() ?? null, error: messageOf(error) }),
    );
    // Whichever comes first: the command runs, or the run failed before it could (bad dir, no such command).
    await Promise.race([running, done]);
    for (const dir of dirs) this.options.recentDirs.remember(dir);
    return { runId };
  }

  async stopRun(runId: string): Promise<void> {
    this.runOf(runId).stop?.();
  }

  async listActiveRuns(): Promise<ActiveRun[]> {
    const source = await this.holders();
    return (await listLiveRuns(runsPathIn(this.options.dataDir), (pid) => source.processInfo(pid))).map(toActiveRun);
  }

  /** Replays the run's journal, then follows it; its end (or stopRun) leaves the record here for exports. */
  async attachRun(runId: string): Promise<void> {
    const source = await this.holders();
    const processInfo = (pid: number) => source.processInfo(pid);
    const live = (await listLiveRuns(runsPathIn(this.options.dataDir), processInfo)).find((r) => r.runId === runId);
    if (!live) throw new BadInputError(`no run ${runId} is going: it has ended, or it was not started with holdwatch run`);
    // Its dirs, so that no minidump taken while following lands under them (a dir gone since is skipped).
    const dirs = (await Promise.all(live.watched.map((d) => source.resolveWatchDir(d).catch(() => null)))).filter((d) => d !== null);
    // Attached again (another window): one follower, replaying from the start to every window.
    this.runs.get(runId)?.followed?.close();
    const { run, onEntry, end } = this.trackRun(runId);
    run.dirs = dirs;
    try {
      run.followed = new FollowedRun(join(runsPathIn(this.options.dataDir), `${runId}.jsonl`), live.pid, () => isRunning(live, processInfo), {
        onEntry,
        onEnd: end,
      });
    } catch (error) {
      this.runs.delete(runId);
      throw new BadInputError(`cannot read the journal of run ${runId}: ${messageOf(error)}`);
    }
    run.stop = () => run.followed?.detach();
  }

  async getProcessDetails(pid: number): Promise<ProcessDetails | null> {
    const facts = await this.processFacts(pid);
    if (!facts) return null;
    const { source, info, endRefusal } = facts;
    const ancestry: ProcessDetails['ancestry'] = [];
    const seen = new Set([pid]);
    for (let ppid = info.ppid; ppid > 0 && !seen.has(ppid) && ancestry.length < MAX_ANCESTRY;) {
      seen.add(ppid);
      const parent = await source.processInfo(ppid);
      if (!parent) break;
      ancestry.push({ pid: parent.pid, name: parent.name, commandLine: parent.commandLine });
      ppid = parent.ppid;
    }
    const processes = await (this.processes ??= openProcessSource());
    // A focused scan of this one process over every dir the session watches: its holdings now.
    const dirs = [...new Map([...this.watches.values(), ...this.runs.values()].flatMap((w) => w.dirs).map((d) => [d.matchPrefix, d])).values()];
    const held =
      dirs.length === 0 ? [] : (await source.scan({ dirs, pids: [pid] })).holders.filter((h) => h.pid === pid && h.processStartedAtMs === info.startedAtMs);
    const extras = await source.processExtras?.(
      pid,
      held.flatMap((h) => (h.handle ? [h.handle] : [])),
    );
    const [environmentTag, everyone] = await Promise.all([processes.readEnvironmentVariable(pid, RUN_TAG_VARIABLE), processes.listProcesses()]);
    return {
      process: info,
      ancestry,
      endRefusal,
      cwd: extras?.cwd ?? null,
      cwdUnreadableReason: extras ? extras.cwdUnreadableReason : 'the process exited while it was read',
      environmentTag,
      // A child started after its parent: an older process with this ppid is a reused pid's orphan.
      children: everyone
        .filter((p) => p.ppid === pid && p.pid !== pid && p.startedAtMs >= info.startedAtMs)
        .map((p) => ({ pid: p.pid, name: p.name, startedAtMs: p.startedAtMs })),
      handleCount: extras?.handleCount ?? null,
      run: this.runMembershipOf(pid, info.startedAtMs),
      holdings: held.map((h) => {
        const fresh = h.handle ? extras?.handles[h.handle] : undefined;
        return {
          kind: h.kind,
          path: h.path,
          watchedDir: h.watchedDir,
          deleted: h.deleted,
          handle: h.handle,
          access: fresh?.access ?? h.access ?? null,
          locks: fresh?.locks ?? [],
          ...shareModeOf(source.platform, h),
        };
      }),
    };
  }

  async endProcess({ pid, startedAtMs }: EndProcessRequestDto): Promise<void> {
    const facts = await this.processFacts(pid);
    if (!facts || !isSameProcess(facts.info, startedAtMs)) throw new BadInputError(`process ${pid} has already exited`);
    if (facts.endRefusal) throw new BadInputError(`holdwatch will not end process ${pid}: ${facts.endRefusal}`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ESRCH') throw new BadInputError(`process ${pid} has already exited`);
      if (code === 'EPERM') throw new BadInputError(`not allowed to end process ${pid}: it belongs to another user; end it as that user or as administrator`);
      throw error;
    }
  }

  private async processFacts(pid: number): Promise<{ source: HolderSource; info: ProcessInfo; endRefusal: string | null } | null> {
    const source = await this.detailsSource();
    const info = await source.processInfo(pid);
    return info
      ? { source, info, endRefusal: refusalToEnd(info, { ownPids: [...this.options.ownPids, ...this.scannerPids()], platform: source.platform }) }
      : null;
  }

  /**
   * Where process details are read: an elevated watch's scanner if there is one. The session's own
   * source keeps the host's rights, so after "Scan as administrator" another user's process would show
   * an unreadable cwd and no holdings in the panel while the watch lists them.
   */
  private detailsSource(): Promise<HolderSource> {
    const elevated = [...this.watches.values()].find((w) => w.source.status.mode === 'worker' && w.source.status.elevated);
    return elevated ? Promise.resolve(elevated.source) : this.holders();
  }

  private runMembershipOf(pid: number, startedAtMs: number): RunMembershipDto | null {
    for (const [runId, run] of this.runs) {
      const member = run.supervisor?.membershipOf?.(pid, startedAtMs);
      if (member) return { runId, spawnedDuring: member.spawnedDuring, byTagOnly: member.byTagOnly, ancestry: member.ancestry };
    }
    return null;
  }

  /** Refuses a reused pid; the capture runs in a child process with a deadline (see live-stack-capture.ts). */
  async captureLiveStack({ pid, startedAtMs }: LiveStackRequestDto): Promise<CapturedLiveStack> {
    const source = await this.holders();
    const info = await source.processInfo(pid);
    if (!info || !isSameProcess(info, startedAtMs)) throw new BadInputError(`process ${pid} has already exited`);
    const watched = [...this.watches.values(), ...this.runs.values()].flatMap((w) => w.dirs);
    // Only Windows writes (a minidump); on Linux the tools print and nothing lands on disk.
    if (source.platform === 'win32') dumpsDirOutside(this.options.dataDir, watched);
    const result = await captureLiveStackInWorker(pid, { dataDir: this.options.dataDir, env: this.options.env });
    return result.kind === 'stack' ? { ...result, text: formatLiveStack(result) } : result;
  }

  async exportReport({ runId, format, redact }: ExportRequestDto): Promise<ExportedReport> {
    const run = this.runOf(runId);
    const record = run.record ?? run.supervisor?.record();
    if (!record) throw new BadInputError(`run ${runId} has not started yet`);
    const ext = { md: 'md', json: 'json', html: 'html' }[format];
    const mimeType = { md: 'text/markdown', json: 'application/json', html: 'text/html' }[format];
    return { fileName: `holdwatch-${runId}.${ext}`, mimeType, text: renderReport(record, format, reportOptions(redact)) };
  }

  async revealPath(path: string): Promise<void> {
    await revealInFileManager(path);
  }

  async listRecentDirs(): Promise<string[]> {
    return this.options.recentDirs.list();
  }

  async defaultDir(): Promise<string> {
    return tmpdir();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await Promise.all([...this.watches.keys()].map((id) => this.stopWatch(id)));
    for (const run of this.runs.values()) run.stop?.();
    const source = this.source;
    this.source = null;
    if (source) await (await source).dispose();
  }

  /** A run's place in the session: its events, the record sent throttled, and its end (the record kept). */
  private trackRun(runId: string) {
    const run: SessionRun = { stop: null, supervisor: null, record: null, dirs: [] };
    this.runs.set(runId, run);
    const emit = (event: RunEvent) => this.runEvents.emit(runId, event);
    const throttle = new Throttle(RECORD_THROTTLE_MS, () => run.supervisor && emit({ type: 'record', record: run.supervisor.record() }));
    const onEntry = (entry: JournalEntry, supervisor: RecordSource) => {
      run.supervisor = supervisor;
      this.forwardEntry(entry, supervisor, emit);
      throttle.poke(entry.t === 'failure');
    };
    const end = ({ exitCode, record, error }: { exitCode: number | null; record: RunRecord | null; error: string | null }) => {
      throttle.dispose();
      run.record = record;
      emit({ type: 'ended', exitCode, record, error });
    };
    return { run, emit, onEntry, end };
  }

  private runOf(runId: string): SessionRun {
    const run = this.runs.get(runId);
    if (!run) throw new BadInputError(`no run ${runId} in this session`);
    return run;
  }

  /** Journal entries, as the front end wants them: holders and failures with their attribution so far. */
  private forwardEntry(entry: JournalEntry, supervisor: RecordSource, emit: (event: RunEvent) => void): void {
    switch (entry.t) {
      case 'run-start':
        emit({ type: 'started', command: entry.command, cwd: entry.cwd, watched: entry.watched });
        break;
      case 'test':
        emit({ type: 'test', event: entry.event });
        break;
      case 'appeared':
      case 'gone': {
        const holder = supervisor.attributedHolder(entry.key);
        if (holder) emit({ type: 'holder', change: entry.t, at: new Date(entry.atMs).toISOString(), holder });
        break;
      }
      case 'failure': {
        const failure = supervisor.record().failures.at(-1);
        if (failure) emit({ type: 'failure', failure });
        break;
      }
    }
  }
}

/** Start times are read from the same source, but rounding may differ by a tick; a reused pid differs by far more. */
function isSameProcess(info: ProcessInfo, startedAtMs: number): boolean {
  return Math.abs(info.startedAtMs - startedAtMs) <= 1000;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Calls `fn` at most every `periodMs`, or at once when poked urgently. */
class Throttle {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly periodMs: number,
    private readonly fn: () => void,
  ) {}

  poke(urgent: boolean): void {
    if (urgent) {
      this.dispose();
      this.fn();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.fn();
    }, this.periodMs);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

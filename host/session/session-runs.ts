// The runs of a host session: test commands started from the UI (supervised here, output captured)
// and `holdwatch run`s in terminals it follows read-only (attachRun). Each run's RunEvents go out
// tagged with its id; when it ends, its record stays here for exports.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunMembershipDto } from '../../contract/details.js';
import type { HolderStacks } from '../../contract/journal.js';
import type { ActiveRun, RunEvent, RunRecord } from '../../contract/runs.js';
import type { ExportedReport, ExportRequestDto, RunRequestDto } from '../../contract/service.js';
import { Emitter } from '../../core/emitter.js';
import { BadInputError, messageOf } from '../../core/errors.js';
import type { HolderSource, WatchDir } from '../../core/platform.js';
import { headline } from '../../core/report/headline.js';
import { runsPathIn } from '../data-dir.js';
import type { RecentDirs } from '../recent-dirs.js';
import type { WorkingDirectory } from '../resolve-dir.js';
import { FollowedRun } from '../run/followed-run.js';
import { isRunning, listLiveRuns, toActiveRun } from '../run/live-runs.js';
import { renderReport, reportOptions } from '../run/run-reports.js';
import { newRunId, startSupervisedRun, type SupervisedRunHandle } from '../run/supervised-run.js';

/** The record so far, and one holder of it by journal key: a run started here, or a terminal run followed. */
// A followed terminal run has no supervisor here, so no live membership: its details say so by omission.
type RecordSource = Pick<SupervisedRunHandle, 'record' | 'attributedHolder'> & Partial<Pick<SupervisedRunHandle, 'membershipOf'>>;

interface SessionRun {
  stop: (() => void) | null;
  source: RecordSource | null;
  record: RunRecord | null;
  /** A terminal run this session follows (attachRun). */
  followed?: FollowedRun;
  /** How many attachRun calls follow it and have not stopped: each page's stop ends only its own. */
  followers: number;
  /** Resolved before the command starts; a minidump is never written under them. */
  dirs: readonly WatchDir[];
}

export interface SessionRunsOptions {
  recentDirs: RecentDirs;
  /** Where journals and live-run markers are (the runs folder of the data dir). */
  dataDir: string;
  /** The environment a run started here inherits. */
  env: NodeJS.ProcessEnv;
  /** The host process's current directory: stepped out of a run's watched dirs too. */
  workingDirectory: WorkingDirectory;
  /** Where holdwatch was started: a run's working directory when none is given, and what a relative one is under. */
  launchDir: string;
  /** The session's holder source for one-off questions (is the terminal run's holdwatch alive?). */
  holders: () => Promise<HolderSource>;
  /** A listener of run events threw (see HostSessionOptions). */
  onListenerError: (error: unknown) => void;
}

export class SessionRuns {
  readonly events = new Emitter<[string, RunEvent]>((error) => this.options.onListenerError(error));
  private readonly runs = new Map<string, SessionRun>();

  constructor(private readonly options: SessionRunsOptions) {}

  /** Resolves once the command is running; a bad dir or an unknown command rejects instead. */
  async start({ command, cwd: asked, dirs, env }: RunRequestDto): Promise<{ runId: string }> {
    // Never the watched dir by default: a runner started inside it holds it (its cwd), the very lock it is run to explain.
    const cwd = resolve(this.options.launchDir, asked.trim());
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new BadInputError(`the working directory ${cwd} does not exist`);
    const runId = newRunId();
    const { run, emit, end } = this.track(runId);
    const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
    const started = startSupervisedRun({
      command,
      cwd,
      watch: dirs,
      env: { ...this.options.env, ...env },
      dataDir: this.options.dataDir,
      workingDirectory: this.options.workingDirectory,
      runId,
      io: {
        stdin: 'ignore',
        output: (stream, chunk) => emit({ type: 'output', stream, text: decoders[stream].decode(chunk, { stream: true }) }),
        userSeesTerminal: false,
        forwardSignals: false,
      },
      onError: (error) => emit({ type: 'output', stream: 'stderr', text: `holdwatch: ${messageOf(error)}\n` }),
    });
    // The run failed before its command could run (bad dir, no such command): said as its end too.
    const handle = await started.catch((error: unknown) => {
      end({ exitCode: null, record: null, error: messageOf(error) });
      throw error;
    });
    run.dirs = handle.dirs;
    run.source = handle;
    run.stop = () => handle.stop();
    handle.events.on(emit);
    handle.done.then(
      ({ record, exitCode }) => end({ exitCode, record, error: null }),
      (error: unknown) => end({ exitCode: null, record: handle.record(), error: messageOf(error) }),
    );
    for (const dir of dirs) this.options.recentDirs.remember(dir);
    return { runId };
  }

  /** Ends a started run's command; detaches from a followed one (never signalled) once no one else follows it. */
  stop(runId: string): void {
    const run = this.runOf(runId);
    if (run.followed && --run.followers > 0) return;
    run.stop?.();
  }

  async listActive(): Promise<ActiveRun[]> {
    const source = await this.options.holders();
    return (await listLiveRuns(runsPathIn(this.options.dataDir), (pid) => source.processInfo(pid))).map(toActiveRun);
  }

  /** Replays the run's journal, then follows it; its end (or stop) leaves the record here for exports. */
  async attach(runId: string): Promise<void> {
    const source = await this.options.holders();
    const processInfo = (pid: number) => source.processInfo(pid);
    const live = (await listLiveRuns(runsPathIn(this.options.dataDir), processInfo)).find((r) => r.runId === runId);
    if (!live) throw new BadInputError(`no run ${runId} is going: it has ended, or it was not started with holdwatch run`);
    // Its dirs, so that no minidump taken while following lands under them (a dir gone since is skipped).
    const dirs = (await Promise.all(live.watched.map((d) => source.resolveWatchDir(d).catch(() => null)))).filter((d) => d !== null);
    // Attached again (another window): one follower, replaying from the start to every window.
    const earlier = this.runs.get(runId);
    earlier?.followed?.close();
    const { run, emit, end } = this.track(runId);
    run.followers = (earlier?.followed ? earlier.followers : 0) + 1;
    run.dirs = dirs;
    try {
      run.followed = new FollowedRun(join(runsPathIn(this.options.dataDir), `${runId}.jsonl`), live.pid, () => isRunning(live, processInfo), {
        onEvent: emit,
        onListenerError: this.options.onListenerError,
        onEnd: end,
      });
      run.source = run.followed;
    } catch (error) {
      this.runs.delete(runId);
      throw new BadInputError(`cannot read the journal of run ${runId}: ${messageOf(error)}`);
    }
    run.stop = () => run.followed?.detach();
  }

  exportReport({ runId, format, redact }: ExportRequestDto): ExportedReport {
    const run = this.runOf(runId);
    const record = run.record ?? run.source?.record();
    if (!record) throw new BadInputError(`run ${runId} has not started yet`);
    const ext = { md: 'md', json: 'json', html: 'html' }[format];
    const mimeType = { md: 'text/markdown', json: 'application/json', html: 'text/html' }[format];
    return { fileName: `holdwatch-${runId}.${ext}`, mimeType, text: renderReport(record, format, reportOptions(redact)) };
  }

  /**
   * One holder's stacks, matched now from the run's probe logs (written as the opens happen): the
   * details panel shows the open line while the run goes. A followed terminal run's probes write to
   * the same data dir (that is where it listed itself), so its logs are read the same way, read-only.
   */
  async holderStacks({ runId, key }: { runId: string; key: string }): Promise<HolderStacks | null> {
    const run = this.runs.get(runId);
    const holder = run?.source?.attributedHolder(key);
    if (!run || !holder) return null;
    const logDir = join(runsPathIn(this.options.dataDir), `${runId}.probes`);
    const { matchRunStacks } = await import('../run/run-stacks.js');
    return (await matchRunStacks(logDir, [{ key, holder }], run.dirs)).byKey[key] ?? null;
  }

  /** The process's place in a run started here, as the run recorded it; null when it is in none. */
  membershipOf(pid: number, startedAtMs: number): RunMembershipDto | null {
    for (const [runId, run] of this.runs) {
      const member = run.source?.membershipOf?.(pid, startedAtMs);
      if (member) return { runId, spawnedDuring: member.spawnedDuring, byTagOnly: member.byTagOnly, ancestry: member.ancestry };
    }
    return null;
  }

  /** Every dir a run of this session watches. */
  dirs(): WatchDir[] {
    return [...this.runs.values()].flatMap((r) => r.dirs);
  }

  /** Ends the commands started here and stops following the others. */
  dispose(): void {
    for (const run of this.runs.values()) run.stop?.();
  }

  /** A run's place in the session: its events, and its end (the record kept). */
  private track(runId: string) {
    const run: SessionRun = { stop: null, source: null, record: null, dirs: [], followers: 0 };
    this.runs.set(runId, run);
    const emit = (event: RunEvent) => this.events.emit(runId, event);
    const end = ({ exitCode, record, error }: { exitCode: number | null; record: RunRecord | null; error: string | null }) => {
      run.record = record;
      emit({ type: 'ended', exitCode, record, error, ...(record ? { headline: headline(record) } : {}) });
    };
    return { run, emit, end };
  }

  private runOf(runId: string): SessionRun {
    const run = this.runs.get(runId);
    if (!run) throw new BadInputError(`no run ${runId} in this session`);
    return run;
  }
}

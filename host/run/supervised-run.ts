// One supervised run, shared by `holdwatch run` (output passed through to the terminal) and the UI's
// session (output captured and sent as events): resolve the dirs, journal, follow the command's tree
// and tests, attribute holders, and end with the record.
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { isatty } from 'node:tty';
import { dirname, join } from 'node:path';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import { withDeadline } from '../../core/clock.js';
import { DisposableStore } from '../../core/disposable-store.js';
import { DEFAULT_GRACE_MS } from '../../core/run/outliving-grace.js';
import { BadInputError, codeOf } from '../../core/errors.js';
import type { WatchDir } from '../../core/platform.js';
import type { RunEventFeed } from '../../core/run/run-events.js';
import type { RunSupervisor } from '../../core/run/supervisor.js';
import type { ParsedOutput } from '../../core/runners/events.js';
import { SniffingParser } from '../../core/runners/sniffing-parser.js';
import { CommandOutputReader } from './command-output-reader.js';
import { FailureLineFilter } from './failure-line-filter.js';
import { loadTapParserBeforeTheCommand, tapParser, tapParserSettled } from './tap-parser-loader.js';
import { openHolderSource, openProcessSource } from '../../native/index.js';
import { runsDir } from '../data-dir.js';
import { resolveAndStepOut, type WorkingDirectory } from '../resolve-dir.js';
import { markRunListed } from './live-run-marker.js';
import { runEnvironment } from './run-env.js';
import type { EventsTail } from './events-tail.js';
import { checkReportTargets, type ReportTargets } from './report-targets.js';
import { newRunId, RunRecording } from './run-recording.js';
import { goLedgerWritten } from './runners/go-exec.js';
import { prepareForRunners } from './runners/prepare.js';
import { PROBES_DIR } from '../install-paths.js';
import { systemClock } from '../system-clock.js';
import { OutputStreams } from './output-streams.js';

/** Where the command's output goes, and how it relates to the terminal holdwatch runs in. */
export interface RunIo {
  /** The user's terminal (`holdwatch run`) or nothing (the UI: the command must not read the host's stdin). */
  stdin: 'inherit' | 'ignore';
  /**
   * Called with each chunk first, unchanged, before holdwatch looks at it. A promise means "not now":
   * that stream of the command is paused until it settles, so a slow reader slows the command down
   * as a direct pipe would, and holdwatch's memory stays bounded.
   */
  output(stream: 'stdout' | 'stderr', chunk: Buffer): void | Promise<void>;
  /** The user sees a terminal: runners keep their colours and Node's reporter picks `spec`. */
  userSeesTerminal: boolean;
  /** Forward SIGTERM/SIGHUP (and SIGINT off a terminal) received by holdwatch to the command. */
  forwardSignals: boolean;
}

export { newRunId };

export interface SupervisedRunOptions {
  command: string[];
  cwd: string;
  watch: string[];
  env: NodeJS.ProcessEnv;
  /** holdwatch's data dir: the journal goes to its runs folder. */
  dataDir: string;
  /**
   * This process's current directory (`process`), stepped out of every watched dir so holdwatch never
   * holds one (the command keeps its own `cwd`). Absent (the library): the caller's is left alone.
   */
  workingDirectory?: WorkingDirectory;
  io: RunIo;
  /** The reports the caller writes at the end: refused once the dirs are resolved, before anything runs, when one could not be. */
  reports?: ReportTargets;
  onError: (error: unknown) => void;
  /** What the run is doing now, for a caller that must say where an early exit happened. */
  onStage?: (stage: string) => void;
  runId?: string;
  /** Leave a marker while the run goes, so a UI can list it and follow it (`holdwatch run` in a terminal). */
  listed?: boolean;
  /**
   * How long the run's processes that outlive the command are followed while they hold something under
   * the watched dirs (DEFAULT_GRACE_MS; 0: not at all).
   */
  graceMs?: number;
  /**
   * Linux: where the run's /proc walks go. `holdwatch run` walks on its own thread ('caller'): a walk
   * thread's boot costs a short suite more than all its walks, and only the command's output, which
   * waits for it, is held up by one. A host that serves pages walks on a thread of its own ('worker',
   * the default).
   */
  walkThread?: 'caller' | 'worker';
}

export interface SupervisedRun {
  record: RunRecord;
  exitCode: number;
  journalPath: string;
}

/** A run whose command is running: what it watches, what it finds as it goes, and its end. */
export interface SupervisedRunHandle {
  readonly runId: string;
  /** Where the run's journal is written (its folder holds the other runs). */
  readonly journalPath: string;
  /** The watched dirs, resolved. */
  readonly dirs: readonly WatchDir[];
  /** The run as it goes: its start, tests, holders and failures attributed so far, the record paced. */
  readonly events: Pick<RunEventFeed, 'on'>;
  /** Ends the command (SIGTERM); the run then finishes its record. */
  stop(): void;
  /** The run's end: its record, the command's exit code, the journal. */
  readonly done: Promise<SupervisedRun>;
  /** The record so far. */
  record(): RunRecord;
  /** One holder as attributed now, by its journal key. */
  attributedHolder(key: string): AttributedHolder | null;
  /** How the run sees a live process; null for a stranger. */
  membershipOf: RunSupervisor['membershipOf'];
}

/**
 * Starts a supervised run; resolves once its command is running. A bad dir, a report that could not be
 * written or a command that cannot run rejects instead, with nothing left behind.
 */
export async function startSupervisedRun(options: SupervisedRunOptions): Promise<SupervisedRunHandle> {
  const { command } = options;
  if (command.length === 0) throw new BadInputError('no command given: holdwatch run --watch <dir> -- <command...>');
  if (command[0]!.trim() === '') throw new BadInputError('the command is empty: holdwatch run --watch <dir> -- <command...>');
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  // Released last-opened first, each within CLEANUP_MS, past a failing one; each failure is said.
  const owned = new DisposableStore({ onReleasing: (stage) => options.onStage?.(stage) });
  let done: Promise<SupervisedRun> | undefined;
  try {
    const { dirs, recording, tail, runnerCommand, env } = await prepareRun(options, owned);
    const supervisor = recording.supervisor;
    const child = runChild(runnerCommand, { env, cwd: options.cwd, io: options.io, readProbeEvents: () => tail.drain() }, supervisor);
    done = finishRun(options, recording, child.exited, owned);
    // The command could not start (no such program): the run ends with that error.
    if (child.pid === undefined) await done;
    return {
      runId: recording.runId,
      journalPath: recording.journalPath,
      dirs,
      events: supervisor.events,
      stop: child.stop,
      done,
      record: () => supervisor.record(),
      attributedHolder: (key) => supervisor.attributedHolder(key),
      membershipOf: (pid, startedAtMs) => supervisor.membershipOf(pid, startedAtMs),
    };
  } finally {
    if (!done) await release(owned, options);
  }
}

interface PreparedRun {
  dirs: WatchDir[];
  recording: RunRecording;
  tail: EventsTail;
  /** The command as the runner table rewrote it (probes, the Go exit stop). */
  runnerCommand: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** Everything before the command starts: the dirs, the backend warmed, the journal begun, the probes' channels. */
async function prepareRun(options: SupervisedRunOptions, owned: DisposableStore): Promise<PreparedRun> {
  const { command } = options;
  const holders = await openHolderSource({ walkThread: options.walkThread ?? 'worker' });
  own(owned, 'stopping the scan workers', () => holders.dispose());
  const dirs: WatchDir[] = [];
  for (const input of options.watch) {
    dirs.push(options.workingDirectory ? await resolveAndStepOut(holders, input, options.workingDirectory) : await holders.resolveWatchDir(input));
  }
  const runs = runsDir(options.dataDir, dirs, (line) => options.onError(new Error(line)));
  if (options.reports) checkReportTargets(options.reports, dirs);
  // Warm the backend before the command starts. On Windows the first scan loads koffi and starts the
  // name worker (under Wine, seconds): a test holding a file for 300 ms would otherwise pass unseen.
  const processes = await openProcessSource();
  if (holders.platform === 'win32') await Promise.all([holders.scan({ dirs }), processes.listProcesses()]);
  const recording = new RunRecording({
    command,
    cwd: options.cwd,
    dirs,
    holders,
    processes,
    runsDir: runs,
    ...(options.runId ? { runId: options.runId } : {}),
    onError: options.onError,
  });
  own(owned, 'closing the journal', () => recording.dispose());
  recording.supervisor.begin();
  if (options.listed) {
    // A marker the disk has no room for costs the UI its listing of this run, not the run.
    const marker = await markRunListed(
      runs,
      { runId: recording.runId, command, cwd: options.cwd, watched: dirs.map((d) => d.display), startedAt: new Date().toISOString() },
      (pid) => processes.processInfo(pid),
    ).catch((error: unknown) => {
      options.onError(new Error(`the run is not listed for holdwatch ui to attach to: ${codeOf(error)}`));
      return null;
    });
    if (marker) own(owned, 'removing the run marker', () => marker.close());
  }
  const tail = recording.followEvents(join(runs, `${recording.runId}.events.jsonl`), { wakeOnChange: false });
  const probeLogDir = recording.createProbeLogDir();
  const boundary = await recording.openBoundary();

  await loadTapParserBeforeTheCommand(process.platform);
  options.onStage?.("preparing the runner's command (the Go exit stop)");
  const prepared = await prepareForRunners({
    command,
    base: options.env,
    cwd: options.cwd,
    cacheDir: dirname(runs),
    probesDir: PROBES_DIR,
    platform: process.platform,
    nodeMajor: OWN_NODE_MAJOR,
    userSeesTerminal: options.io.userSeesTerminal,
  });
  // The tests a probe reports are the ones its runner's output reports again.
  if (prepared.runner.tests.by === 'probe') recording.supervisor.expectProbeTests();
  const env = runEnvironment(
    { ...options.env, ...prepared.env },
    { runId: recording.runId, eventsPath: tail.path, probeLogDir, boundary, watched: dirs.map((d) => d.matchPrefix) },
    options.io.userSeesTerminal,
  );
  return { dirs, recording, tail, runnerCommand: prepared.command, env };
}

/** After the command: the processes that outlived it, the record, then everything the run opened closed. */
async function finishRun(options: SupervisedRunOptions, recording: RunRecording, exited: Promise<number>, owned: DisposableStore): Promise<SupervisedRun> {
  try {
    const exitCode = await exited;
    options.onStage?.('following the processes that outlived the command');
    await recording.supervisor.followOutliving(options.graceMs ?? DEFAULT_GRACE_MS);
    options.onStage?.('finishing the record (final scan, leftovers, stacks)');
    const record = await recording.finish(exitCode);
    return { record, exitCode, journalPath: recording.journalPath };
  } finally {
    recording.supervisor.events.close();
    await release(owned, options);
  }
}

/**
 * Owns `run`, said as `stage` while it runs. Its own timer keeps the process alive: a release whose only
 * waker went away would let the event loop drain and Node exit before the reports are written. Past
 * CLEANUP_MS it is left behind, said once.
 */
function own(owned: DisposableStore, stage: string, run: () => unknown): void {
  owned.defer(() => withDeadline(systemClock, Promise.resolve().then(run), CLEANUP_MS, stage), stage);
}

/** Releases what the run owns; each failure is said on its own, none ends the run's record. */
async function release(owned: DisposableStore, options: SupervisedRunOptions): Promise<void> {
  await owned.dispose().catch((error: unknown) => (error instanceof AggregateError ? error.errors : [error]).forEach(options.onError));
}

/** Node's own major: the node the command runs is, nearly always, the one running holdwatch. */
const OWN_NODE_MAJOR = Number(process.versions.node.split('.')[0]);
/** A signal's death as a shell reports it: 128 + the signal's number. */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0);
}

/** What the user got wrong, said in their terms; anything else stays an internal error. */
function spawnError(error: NodeJS.ErrnoException, program: string): Error {
  if (error.code === 'ENOENT') return new BadInputError(`command not found: ${program}`);
  if (error.code === 'EACCES' || error.code === 'EISDIR' || error.code === 'ENOEXEC' || error.code === 'EPERM')
    return new BadInputError(`cannot run ${program}: ${error.code} (is it an executable file, not a directory?)`);
  return error;
}

const CLEANUP_MS = 10_000;

interface ChildOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  io: RunIo;
  /** Reads what the probes appended to the events file so far (synchronously). */
  readProbeEvents: () => void;
}

interface RunningChild {
  /** Undefined when the command could not be started (`exited` then rejects with why). */
  pid: number | undefined;
  stop: () => void;
  /** The command's exit code (128+n for signal n), once its output was read to the end. */
  exited: Promise<number>;
}

/** Spawns the command, hands its output on unchanged, forwards signals. */
function runChild(command: readonly string[], { env, cwd, io, readProbeEvents }: ChildOptions, supervisor: RunSupervisor): RunningChild {
  // Ctrl-C in a terminal already reached the whole foreground group, the command included.
  // isatty(0), not process.stdin: that would build a stream on fd 0 only to ask it this.
  const onTty = io.stdin === 'inherit' && isatty(0);
  // Off a terminal holdwatch forwards every signal, so the command gets a process group of its own: a
  // signal sent to holdwatch's group (CI cancelling a job, `timeout`) then reaches it once, forwarded.
  // POSIX only: on Windows `detached` gives the command a console of its own, not a process group.
  const ownGroup = io.forwardSignals && !onTty && process.platform !== 'win32';
  const child = spawn(command[0]!, command.slice(1), { stdio: [io.stdin, 'pipe', 'pipe'], env, cwd, detached: ownGroup });
  supervisor.attach(child.pid ?? -1);
  const exited = new Promise<number>((resolve, reject) => {
    const parser = new SniffingParser(command.join(' '), systemClock, tapParser);
    const stdoutReader = new CommandOutputReader(parser);
    const goLedger = goLedgerWritten(env);
    const feed = (parsed: ParsedOutput) => {
      // The events file first: a probe writes a test's start before its runner prints it (mocha under
      // npm: the probe reports those tests), and a teardown's failure line follows the runner's word.
      if (parsed.events.length > 0 || parsed.lines.length > 0) readProbeEvents();
      const ledgered = parsed.events.length > 0 && (parser.kind === 'go-test-json' || parser.kind === 'go-test-v') && goLedger();
      for (const event of parsed.events) supervisor.outputTestEvent(event, ledgered);
      for (const line of parsed.lines) supervisor.outputLine(line.text, line.test);
    };
    const stderrLines = new FailureLineFilter();
    const streams = new OutputStreams(io, child.stdout, child.stderr);
    child.stdout.on('data', (chunk: Buffer) => {
      streams.pass('stdout', chunk); // first, unchanged: the user sees it before we look at it
      feed(stdoutReader.push(chunk));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      streams.pass('stderr', chunk);
      const lines = stderrLines.push(chunk);
      if (lines.length > 0) readProbeEvents();
      for (const line of lines) supervisor.outputLine(line);
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const signals: NodeJS.Signals[] = !io.forwardSignals ? [] : onTty ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const handlers = signals.map((s) => [s, forward(s)] as const);
    const ignoreInt = () => {};
    for (const [s, h] of handlers) process.on(s, h);
    if (io.forwardSignals && onTty) process.on('SIGINT', ignoreInt); // let the command decide; we report after it
    const unhook = () => {
      for (const [s, h] of handlers) process.off(s, h);
      process.off('SIGINT', ignoreInt);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      unhook();
      reject(spawnError(error, command[0]!));
    });
    child.on('exit', (code, signal) => {
      unhook();
      supervisor.commandExited(exitCodeOf(code, signal));
      // A TAP stream's parser may still be loading: its end needs it.
      void streams
        .drained()
        .then(tapParserSettled)
        .then(() => {
          feed(stdoutReader.end(code));
          for (const line of stderrLines.end()) supervisor.outputLine(line);
          resolve(exitCodeOf(code, signal));
        });
    });
  });
  return { pid: child.pid, stop: () => child.kill('SIGTERM'), exited };
}

// One supervised run, shared by `holdwatch run` (output passed through to the terminal) and the UI's
// session (output captured and sent as events): resolve the dirs, journal, follow the command's tree
// and tests, attribute holders, and end with the record.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as osConstants, release } from 'node:os';
import { join } from 'node:path';
import type { RunRecord } from '../core/api.js';
import { BadInputError } from '../core/errors.js';
import { POSIX_STYLE, WINDOWS_STYLE } from '../core/paths.js';
import type { HolderSource, WatchDir } from '../core/platform.js';
import type { JournalEntry } from '../core/run/journal-entries.js';
import { findLeftovers } from '../core/run/leftovers.js';
import { RunSupervisor } from '../core/run/supervisor.js';
import { ProbeEventsParser } from '../core/runners/probe-events.js';
import { SniffingParser } from '../core/runners/sniffing-parser.js';
import { matchTeardownFailure } from '../core/signatures/match-line.js';
import { openHolderSource, openProcessSource } from '../native/index.js';
import { listTree } from '../native/tree-listing.js';
import { runsDir } from './data-dir.js';
import { EventsTail } from './events-tail.js';
import { JournalFile } from './journal-file.js';
import { runEnvironment } from './run-env.js';
import { prepareCommand, type PreparedCommand } from './runner-probes.js';
import { systemClock } from './system.js';
import { holdwatchVersion } from './version.js';

/** Where the command's output goes, and how it relates to the terminal holdwatch runs in. */
export interface RunIo {
  /** The user's terminal (`holdwatch run`) or nothing (the UI: the command must not read the host's stdin). */
  stdin: 'inherit' | 'ignore';
  /** Called with each chunk first, unchanged, before holdwatch looks at it. */
  output(stream: 'stdout' | 'stderr', chunk: Buffer): void;
  /** The user sees a terminal: runners keep their colours and Node's reporter picks `spec`. */
  userSeesTerminal: boolean;
  /** Forward SIGTERM/SIGHUP (and SIGINT off a terminal) received by holdwatch to the command. */
  forwardSignals: boolean;
}

export interface SupervisedRunOptions {
  command: string[];
  cwd: string;
  watch: string[];
  env: NodeJS.ProcessEnv;
  io: RunIo;
  /** Checked once the dirs are resolved, before anything runs (report targets outside watched dirs). */
  checkDirs?: (dirs: readonly WatchDir[]) => void;
  /** Every journal entry, as it happens; `supervisor.record()` is the record so far. */
  onEntry?: (entry: JournalEntry, supervisor: RunSupervisor) => void;
  /** The command is running: `stop` ends it (SIGTERM). */
  onSpawned?: (run: { runId: string; stop: () => void }) => void;
  onError: (error: unknown) => void;
  /** A holder source the caller owns (the UI session shares one); else one is opened and closed here. */
  holders?: HolderSource;
  runId?: string;
}

export interface SupervisedRun {
  record: RunRecord;
  exitCode: number;
  journalPath: string;
}

export function newRunId(): string {
  return `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
}

export async function superviseRun(options: SupervisedRunOptions): Promise<SupervisedRun> {
  const { command } = options;
  if (command.length === 0) throw new BadInputError('no command given: holdwatch run --watch <dir> -- <command...>');
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  const holders = options.holders ?? (await openHolderSource({ threads: 2 }));
  const cleanups: (() => void | Promise<void>)[] = options.holders ? [] : [() => holders.dispose()];
  try {
    const dirs: WatchDir[] = [];
    for (const input of options.watch) dirs.push(await holders.resolveWatchDir(input));
    const runId = options.runId ?? newRunId();
    const runs = runsDir(dirs);
    options.checkDirs?.(dirs);
    const journal = new JournalFile(join(runs, `${runId}.jsonl`));
    cleanups.push(() => journal.close());
    const before = snapshotTrees(dirs);
    const supervisor: RunSupervisor = new RunSupervisor({
      runId,
      command,
      cwd: options.cwd,
      dirs,
      platform: holders.platform,
      versions: { holdwatch: holdwatchVersion(), node: process.version, os: `${process.platform} ${release()}` },
      holders,
      processes: await openProcessSource(),
      clock: systemClock,
      journal: (entry) => {
        journal.append(entry);
        options.onEntry?.(entry, supervisor);
      },
      detectFailure: (line) => {
        const hit = matchTeardownFailure(line);
        return hit ? { kind: hit.kind, code: hit.error.code, path: hit.path ?? null } : null;
      },
      onError: options.onError,
    });
    cleanups.push(() => supervisor.dispose());
    supervisor.begin();

    const probeEvents = new ProbeEventsParser();
    const tail = new EventsTail(join(runs, `${runId}.events.jsonl`), (text) => probeEvents.push(text).events.forEach((e) => supervisor.testEvent(e)));
    cleanups.push(() => tail.close());

    const prepared = prepareCommand(command, options.io.userSeesTerminal);
    const env = runEnvironment(options.env, runId, tail.path, options.io.userSeesTerminal);
    const exitCode = await runChild(prepared, { env, cwd: options.cwd, io: options.io, runId, onSpawned: options.onSpawned }, supervisor);
    tail.close();
    const record = await supervisor.finish(exitCode, async (testAt) => leftoversOf(dirs, before, testAt));
    return { record, exitCode, journalPath: journal.path };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

interface ChildOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  io: RunIo;
  runId: string;
  onSpawned: SupervisedRunOptions['onSpawned'];
}

/** Spawns the command, hands its output on unchanged, forwards signals; resolves to its exit code. */
function runChild({ command, probeReportsTests }: PreparedCommand, { env, cwd, io, runId, onSpawned }: ChildOptions, supervisor: RunSupervisor): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: [io.stdin, 'pipe', 'pipe'], env, cwd });
    supervisor.attach(child.pid ?? -1);
    if (child.pid !== undefined) onSpawned?.({ runId, stop: () => child.kill('SIGTERM') });
    const stdoutParser = new SniffingParser(command.join(' '), systemClock);
    const feed = (parsed: ReturnType<SniffingParser['push']>) => {
      if (!probeReportsTests) for (const event of parsed.events) supervisor.testEvent(event);
      for (const line of parsed.lines) supervisor.outputLine(line.text, line.test);
    };
    const stderrLines = new SniffingParser('stderr', systemClock);
    const decoders = { out: new TextDecoder(), err: new TextDecoder() };
    child.stdout!.on('data', (chunk: Buffer) => {
      io.output('stdout', chunk); // first, unchanged: the user sees it before we look at it
      feed(stdoutParser.push(decoders.out.decode(chunk, { stream: true })));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      io.output('stderr', chunk);
      for (const line of stderrLines.push(decoders.err.decode(chunk, { stream: true })).lines) supervisor.outputLine(line.text);
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    // Ctrl-C in a terminal already reached the whole foreground group, the command included.
    const onTty = io.stdin === 'inherit' && Boolean(process.stdin.isTTY);
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
      reject(error.code === 'ENOENT' ? new BadInputError(`command not found: ${command[0]}`) : error);
    });
    child.on('exit', (code, signal) => {
      unhook();
      // A detached grandchild may keep the pipes open forever: read what is there, then stop waiting.
      setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
        feed(stdoutParser.end(code));
        for (const line of stderrLines.end().lines) supervisor.outputLine(line.text);
        resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0));
      }, 100);
    });
  });
}

function styleOf(dir: WatchDir) {
  return dir.caseInsensitive ? WINDOWS_STYLE : POSIX_STYLE;
}

function snapshotTrees(dirs: readonly WatchDir[]): Set<string> {
  return new Set(dirs.flatMap((d) => listTree(d.display).map((e) => e.path)));
}

function leftoversOf(dirs: readonly WatchDir[], before: ReadonlySet<string>, testAt: (ms: number) => string | null): RunRecord['leftovers'] {
  return dirs.flatMap((d) => findLeftovers(before, listTree(d.display), testAt, styleOf(d)));
}

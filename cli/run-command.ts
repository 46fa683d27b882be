// `holdwatch run --watch <dir> [...] -- <cmd...>`: runs the test command with its output passed through
// byte for byte, follows its processes and tests, and exits with its exit code (128+n for a signal).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as osConstants, release } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunRecord } from '../core/api.js';
import { BadInputError } from '../core/errors.js';
import { POSIX_STYLE, WINDOWS_STYLE } from '../core/paths.js';
import type { WatchDir } from '../core/platform.js';
import { findLeftovers } from '../core/run/leftovers.js';
import { RunSupervisor } from '../core/run/supervisor.js';
import { ProbeEventsParser } from '../core/runners/probe-events.js';
import { SniffingParser } from '../core/runners/sniffing-parser.js';
import { openHolderSource, openProcessSource } from '../native/index.js';
import { listTree } from '../native/tree-listing.js';
import { runsDir } from './data-dir.js';
import { EventsTail } from './events-tail.js';
import { detectFailure } from './failure-line.js';
import { JournalFile } from './journal-file.js';
import { checkReportTargets, writeRunReports, type ReportTargets } from './run-reports.js';
import { runEnvironment } from './run-env.js';
import { prepareCommand, type PreparedCommand } from './runner-probes.js';
import { systemClock } from './system.js';
import { holdwatchVersion } from './version.js';

export interface RunOptions extends ReportTargets {
  watch: string[];
  killLeftovers?: boolean;
}

export async function runCommand(command: string[], options: RunOptions): Promise<number> {
  if (command.length === 0) throw new BadInputError('no command given: holdwatch run --watch <dir> -- <command...>');
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  const holders = await openHolderSource({ threads: 2 });
  const cleanups: (() => void | Promise<void>)[] = [() => holders.dispose()];
  try {
    const dirs: WatchDir[] = [];
    for (const input of options.watch) dirs.push(await holders.resolveWatchDir(input));
    const runId = `${new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '')}-${randomBytes(3).toString('hex')}`;
    const runs = runsDir(dirs);
    checkReportTargets(options, dirs, (p) => resolve(p));
    const journal = new JournalFile(join(runs, `${runId}.jsonl`));
    cleanups.push(() => journal.close());
    const before = snapshotTrees(dirs);
    // Warm the backend before the command starts. On Windows the first scan loads koffi and starts the
    // name worker (under Wine, seconds): a test holding a file for 300 ms would otherwise pass unseen.
    const processes = await openProcessSource();
    if (holders.platform === 'win32') await Promise.all([holders.scan({ dirs }), processes.listProcesses()]);
    const supervisor = new RunSupervisor({
      runId,
      command,
      cwd: process.cwd(),
      dirs,
      platform: holders.platform,
      versions: { holdwatch: holdwatchVersion(), node: process.version, os: `${process.platform} ${release()}` },
      holders,
      processes,
      clock: systemClock,
      journal: (entry) => journal.append(entry),
      detectFailure,
      onError: (error) => process.stderr.write(`holdwatch: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    cleanups.push(() => supervisor.dispose());
    supervisor.begin();

    const probeEvents = new ProbeEventsParser();
    const tail = new EventsTail(join(runs, `${runId}.events.jsonl`), (text) => probeEvents.push(text).events.forEach((e) => supervisor.testEvent(e)));
    cleanups.push(() => tail.close());

    const prepared = prepareCommand(command, Boolean(process.stdout.isTTY));
    const exitCode = await runChild(prepared, runEnvironment(process.env, runId, tail.path, Boolean(process.stdout.isTTY)), supervisor);
    tail.close();
    const record = await supervisor.finish(exitCode, async (testAt) => leftoversOf(dirs, before, testAt));
    writeRunReports(record, options);
    if (options.killLeftovers) killStragglers(record);
    summarize(record, journal.path);
    process.exitCode = exitCode; // already now: nothing in the cleanup below may lose it
    return exitCode;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** Spawns the command, passes its output through unchanged, forwards signals; resolves to its exit code. */
function runChild({ command, probeReportsTests }: PreparedCommand, env: NodeJS.ProcessEnv, supervisor: RunSupervisor): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, command.slice(1), { stdio: ['inherit', 'pipe', 'pipe'], env });
    supervisor.attach(child.pid ?? -1);
    const stdoutParser = new SniffingParser(command.join(' '), systemClock);
    const feed = (parsed: ReturnType<SniffingParser['push']>) => {
      if (!probeReportsTests) for (const event of parsed.events) supervisor.testEvent(event);
      for (const line of parsed.lines) supervisor.outputLine(line.text, line.test);
    };
    const stderrLines = new SniffingParser('stderr', systemClock);
    const decoders = { out: new TextDecoder(), err: new TextDecoder() };
    // If our reader goes away (`holdwatch run ... | head`), the command's reader goes away too, as it
    // would without holdwatch; supervising goes on.
    const onStdoutError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') child.stdout!.destroy();
    };
    process.stdout.on('error', onStdoutError);
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk); // first, unchanged: the user sees it before we look at it
      feed(stdoutParser.push(decoders.out.decode(chunk, { stream: true })));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      for (const line of stderrLines.push(decoders.err.decode(chunk, { stream: true })).lines) supervisor.outputLine(line.text);
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    // Ctrl-C in a terminal already reached the whole foreground group, the command included.
    const signals: NodeJS.Signals[] = process.stdin.isTTY ? ['SIGTERM', 'SIGHUP'] : ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const handlers = signals.map((s) => [s, forward(s)] as const);
    const ignoreInt = () => {};
    for (const [s, h] of handlers) process.on(s, h);
    if (process.stdin.isTTY) process.on('SIGINT', ignoreInt); // let the command decide; we report after it
    child.on('error', (error: NodeJS.ErrnoException) => {
      for (const [s, h] of handlers) process.off(s, h);
      process.off('SIGINT', ignoreInt);
      reject(error.code === 'ENOENT' ? new BadInputError(`command not found: ${command[0]}`) : error);
    });
    child.on('exit', (code, signal) => {
      process.stdout.off('error', onStdoutError);
      for (const [s, h] of handlers) process.off(s, h);
      process.off('SIGINT', ignoreInt);
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

function killStragglers(record: RunRecord): void {
  const pids = new Set(record.holders.filter((h) => h.attribution.verdict !== 'outside-run').map((h) => h.pid));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function summarize(record: RunRecord, journalPath: string): void {
  const count = (v: string) => record.holders.filter((h) => h.attribution.verdict === v).length;
  const parts = [`${record.holders.length} holder(s)`, `${count('leaked-past-test')} leaked past their test`, `${count('blocked-cleanup')} blocked cleanup`, `${record.failures.length} teardown failure(s)`, `${record.leftovers.length} leftover(s)`];
  process.stderr.write(`holdwatch: run ${record.runId}: ${parts.join(', ')}; journal ${journalPath}\n`);
}

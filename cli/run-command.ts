// `holdwatch run --watch <dir> [...] -- <cmd...>`: runs the test command with its output passed through
// byte for byte, follows its processes and tests, and exits with its exit code (128+n for a signal).
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunRecord } from '../core/api.js';
import { BadInputError } from '../core/errors.js';
import type { WatchDir } from '../core/platform.js';
import type { RunSupervisor } from '../core/run/supervisor.js';
import { SniffingParser } from '../core/runners/sniffing-parser.js';
import { openHolderSource, openProcessSource } from '../native/index.js';
import { runsDir } from './data-dir.js';
import { checkReportTargets, type ReportTargets } from './run-reports.js';
import { runEnvironment } from './run-env.js';
import { RunSession } from './run-session.js';
import { prepareCommand, type PreparedCommand } from './runner-probes.js';
import { systemClock } from './system.js';

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
    const runs = runsDir(dirs);
    checkReportTargets(options, dirs, (p) => resolve(p));
    // Warm the backend before the command starts. On Windows the first scan loads koffi and starts the
    // name worker (under Wine, seconds): a test holding a file for 300 ms would otherwise pass unseen.
    const processes = await openProcessSource();
    if (holders.platform === 'win32') await Promise.all([holders.scan({ dirs }), processes.listProcesses()]);
    const session = new RunSession({ command, cwd: process.cwd(), dirs, holders, processes, runsDir: runs });
    cleanups.push(() => session.dispose());
    session.supervisor.begin();
    const tail = session.followEvents(join(runs, `${session.runId}.events.jsonl`));

    const prepared = prepareCommand(command, Boolean(process.stdout.isTTY));
    const probeLogDir = session.createProbeLogDir();
    const exitCode = await runChild(prepared, runEnvironment(process.env, session.runId, tail.path, probeLogDir, Boolean(process.stdout.isTTY)), session.supervisor);
    process.exitCode = exitCode; // already now: nothing in the cleanup below may lose it
    const record = await session.finish(exitCode, options);
    if (options.killLeftovers) killStragglers(record);
    session.summarize(record);
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

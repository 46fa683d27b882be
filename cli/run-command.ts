// `holdwatch run --watch <dir> [...] -- <cmd...>`: runs the test command with its output passed through
// byte for byte, follows its processes and tests, and exits with its exit code (128+n for a signal).
import type { RunRecord } from '../contract/runs.js';
import { dataDirOf } from '../host/data-dir.js';
import { absoluteTargets, anyReportTarget, type ReportTargets } from '../host/run/report-targets.js';
import { runEndLines } from '../host/run/run-end-lines.js';
import { DEFAULT_RETENTION, pruneRuns } from '../host/run/run-retention.js';
import { writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { EXIT_INTERNAL } from '../contract/exit-codes.js';
import { codeOf, messageOf } from '../core/errors.js';
import { endProcessIfSame, startRun } from '../host/holdwatch.js';

export interface RunOptions extends ReportTargets {
  watch: string[];
  killLeftovers?: boolean;
  /** The counts line alone at the end, without the headline and the report's place. */
  quiet?: boolean;
  /** How long processes that outlive the command are followed while they hold something (ms). */
  grace?: number;
}

export async function runCommand(command: string[], given: RunOptions): Promise<number> {
  // Relative report paths are the user's, from where they typed them: holdwatch steps out of a watched dir.
  const options = absoluteTargets(given, process.cwd());
  const userSeesTerminal = Boolean(process.stdout.isTTY);
  // Our reader went away (`holdwatch run ... | head`): the command's output is dropped, as a closed
  // pipe would drop it, and supervising goes on (main's default listener would exit).
  const ignoreClosedStdout = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  };
  process.stdout.on('error', ignoreClosedStdout);
  // Exiting before the record is written must never be silent, nor read as the command's success: the
  // exit code is set only once the reports are written, an early exit is 70, and its one line is
  // written synchronously (an 'exit' listener's async write is dropped). A ref'd timer keeps the event
  // loop from draining meanwhile: a step whose only waker went away cannot end the process quietly.
  let stage = 'running the command';
  let finished = false;
  const exitedEarly = () => {
    if (finished) return;
    process.exitCode = EXIT_INTERNAL;
    writeSync(
      2,
      `holdwatch: exited while ${stage}, before the run's reports were written (exit code ${EXIT_INTERNAL}); the journal is in the data dir's runs folder\n`,
    );
  };
  process.once('exit', exitedEarly);
  const keepAlive = setInterval(() => undefined, 1 << 30);
  try {
    const started = startRun({
      command,
      cwd: process.cwd(),
      watch: options.watch,
      env: process.env,
      dataDir: dataDirOf(process.env, process.platform),
      workingDirectory: process,
      listed: true,
      walkThread: 'caller',
      ...(options.grace === undefined ? {} : { graceMs: options.grace }),
      io: {
        stdin: 'inherit',
        output: (stream, chunk) => passThrough(stream === 'stdout' ? process.stdout : process.stderr, chunk),
        userSeesTerminal,
        forwardSignals: true,
      },
      reports: options,
      onError: (error) => process.stderr.write(`holdwatch: ${messageOf(error)}\n`),
      onStage: (name) => (stage = name),
    });
    const ended = started.then((run) => {
      // While the command runs, not after it: the user waits for neither, and the run's end is no later.
      setImmediate(() => pruneOldRuns(dirname(run.journalPath)));
      return run.done;
    });
    const { record, exitCode, journalPath } = await ended.finally(() => process.stdout.off('error', ignoreClosedStdout));
    stage = 'writing the reports';
    const targets = { ...options, stepSummary: process.env.GITHUB_STEP_SUMMARY };
    // The renderers load only for a run that writes a report: not at its start, nor for a run without one.
    if (anyReportTarget(targets)) {
      const { writeRunReports } = await import('../host/run/run-reports.js');
      // A report the disk had no room for is said; the command's exit code stays what it was.
      for (const failure of writeRunReports(record, targets))
        process.stderr.write(`holdwatch: ${failure}; \`holdwatch report ${journalPath}\` renders it again\n`);
    }
    if (options.killLeftovers) await endLeftoverHolders(record);
    // The answer last: what a CI log shows first when it folds the rest.
    const reports = [given.report, given.html, given.json].filter((path): path is string => path !== undefined);
    process.stderr.write(runEndLines(record, journalPath, { reports, quiet: given.quiet }));
    finished = true;
    return exitCode;
  } catch (error) {
    finished = true; // main reports it in one line
    throw error;
  } finally {
    clearInterval(keepAlive);
    process.off('exit', exitedEarly);
  }
}

/** Writes `chunk`; when the reader is behind, resolves once it caught up (or went away). */
function passThrough(target: NodeJS.WriteStream, chunk: Buffer): void | Promise<void> {
  // A reader that went away (EPIPE, then closed): the output is dropped, as a closed pipe would drop it.
  if (target.destroyed || target.write(chunk)) return;
  return new Promise((resolve) => {
    const done = () => {
      target.off('drain', done);
      target.off('close', done);
      resolve();
    };
    target.once('drain', done);
    target.once('close', done);
  });
}

/**
 * `--kill-leftovers`: ends the run's holders that are still alive, each only while its pid still
 * belongs to the process the run saw (pid and start time): a holder that exited long ago may have
 * left its pid to anything, another run's process included.
 */
async function endLeftoverHolders(record: RunRecord): Promise<void> {
  const seen = new Map<number, { startedAtMs: number; name: string; path: string }>();
  for (const h of record.holders)
    if (h.attribution.verdict !== 'outside-run' && h.processStartedAtMs !== null && !seen.has(h.pid))
      seen.set(h.pid, { startedAtMs: h.processStartedAtMs, name: h.processName, path: h.path });
  // Each one said: ending a user's process silently is not ours to do.
  for (const [pid, { startedAtMs, name, path }] of seen)
    if ((await endProcessIfSame(pid, startedAtMs)) === 'ended')
      process.stderr.write(`holdwatch: --kill-leftovers ended ${name} (PID ${pid}), which held ${path}\n`);
}

/** Old runs go as new ones come (run-retention.ts); this run, still going, is never one of them. */
function pruneOldRuns(runsDir: string): void {
  try {
    pruneRuns(runsDir, DEFAULT_RETENTION, Date.now());
  } catch (error) {
    process.stderr.write(`holdwatch: old runs were not pruned: ${codeOf(error)}\n`);
  }
}

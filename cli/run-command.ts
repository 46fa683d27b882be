// `holdwatch run --watch <dir> [...] -- <cmd...>`: runs the test command with its output passed through
// byte for byte, follows its processes and tests, and exits with its exit code (128+n for a signal).
import type { RunRecord } from '../contract/runs.js';
import { dataDirOf } from '../host/data-dir.js';
import { absoluteTargets, checkReportTargets, writeRunReports, type ReportTargets } from '../host/run/run-reports.js';
import { runSummaryLine } from '../host/run/run-recording.js';
import { superviseRun } from '../host/run/supervised-run.js';
import { messageOf } from '../core/errors.js';

export interface RunOptions extends ReportTargets {
  watch: string[];
  killLeftovers?: boolean;
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
  // Exiting before the record is written must never be silent (the journal still has the run).
  let stage = 'running the command';
  const exitedEarly = () =>
    process.stderr.write(
      `holdwatch: exited while ${stage}, before the run's reports were written (exit code ${process.exitCode ?? 0}); the journal is in the data dir's runs folder\n`,
    );
  process.once('exit', exitedEarly);
  const { record, exitCode, journalPath } = await superviseRun({
    command,
    cwd: process.cwd(),
    watch: options.watch,
    env: process.env,
    dataDir: dataDirOf(process.env, process.platform),
    workingDirectory: process,
    listed: true,
    io: {
      stdin: 'inherit',
      output: (stream, chunk) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
      userSeesTerminal,
      forwardSignals: true,
    },
    checkDirs: (dirs) => checkReportTargets(options, dirs),
    onError: (error) => process.stderr.write(`holdwatch: ${messageOf(error)}\n`),
    onStage: (name) => (stage = name),
    // Already now: nothing in the cleanup after it may lose it (an unref'd worker's exit cannot hold the loop).
    onExited: (code) => (process.exitCode = code),
  })
    .catch((error: unknown) => {
      process.off('exit', exitedEarly); // main reports it in one line
      throw error;
    })
    .finally(() => process.stdout.off('error', ignoreClosedStdout));
  stage = 'writing the reports';
  writeRunReports(record, { ...options, stepSummary: process.env.GITHUB_STEP_SUMMARY });
  if (options.killLeftovers) killStragglers(record);
  process.stderr.write(runSummaryLine(record, journalPath));
  process.off('exit', exitedEarly);
  return exitCode;
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

// `holdwatch attach --watch <dir> [--pid <pid>]`: runs holdwatch did not start (host/run/attach-runs.ts).
// With --pid, follows that process and its descendants as one run until it exits. Without, follows each
// run a probe announces in the inbox until Ctrl-C / SIGTERM. Nothing is ever killed.
import { BadInputError } from '../core/errors.js';
import { dataDirOf } from '../host/data-dir.js';
import { attachRuns } from '../host/holdwatch.js';
import { absoluteTargets, type ReportTargets } from '../host/run/report-targets.js';

export interface AttachOptions extends ReportTargets {
  pid?: string;
  watch: string[];
}

export async function attachCommand(given: AttachOptions): Promise<number> {
  // Relative report paths are the user's, from where they typed them: holdwatch steps out of a watched dir.
  const options = absoluteTargets(given, process.cwd());
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  const pid = options.pid === undefined ? undefined : parsePid(options.pid);
  await attachRuns({
    watch: options.watch,
    ...(pid === undefined ? {} : { pid }),
    targets: { ...options, stepSummary: process.env.GITHUB_STEP_SUMMARY },
    dataDir: dataDirOf(process.env, process.platform),
    workingDirectory: process,
    stopSignals,
    log: (line) => process.stderr.write(line),
  });
  return 0;
}

function parsePid(value: string): number {
  const pid = Number(value);
  if (!/^\d+$/.test(value) || pid < 1 || pid > 0x7fffffff) throw new BadInputError(`invalid pid: ${value}`);
  if (pid === process.pid) throw new BadInputError(`pid ${pid} is holdwatch itself`);
  return pid;
}

/** Ctrl-C / SIGTERM / SIGHUP end the wait; the runs are then recorded and holdwatch exits 0. */
function stopSignals(): { stopped: Promise<void>; dispose: () => void } {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handler = () => stop();
  for (const s of signals) process.on(s, handler);
  return { stopped, dispose: () => signals.forEach((s) => process.off(s, handler)) };
}

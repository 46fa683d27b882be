// `holdwatch attach --watch <dir> [--pid <pid>]`: runs holdwatch did not start (host/run/attach-runs.ts).
// With --pid, follows that process and its descendants as one run until it exits. Without, follows each
// run a probe announces in the inbox until Ctrl-C / SIGTERM. Nothing is ever killed.
import { BadInputError } from '../core/errors.js';
import type { WatchDir } from '../core/platform.js';
import { dataDirOf, runsDir } from '../host/data-dir.js';
import { Inbox } from '../host/inbox/inbox-dir.js';
import { resolveAndStepOut } from '../host/resolve-dir.js';
import { followAnnouncedRuns, followProcess, type AttachContext } from '../host/run/attach-runs.js';
import { findTarget } from '../host/run/attached-run.js';
import { absoluteTargets, checkReportTargets, type ReportTargets } from '../host/run/run-reports.js';
import { openHolderSource, openProcessSource } from '../native/index.js';

export interface AttachOptions extends ReportTargets {
  pid?: string;
  watch: string[];
}

export async function attachCommand(given: AttachOptions): Promise<number> {
  // Relative report paths are the user's, from where they typed them: holdwatch steps out of a watched dir.
  const options = absoluteTargets(given, process.cwd());
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  const pid = options.pid === undefined ? undefined : parsePid(options.pid);
  const holders = await openHolderSource({ walkThread: 'worker' });
  const cleanups: (() => void | Promise<void>)[] = [() => holders.dispose()];
  try {
    const dirs: WatchDir[] = [];
    for (const input of options.watch) dirs.push(await resolveAndStepOut(holders, input, process));
    const dataDir = dataDirOf(process.env, process.platform);
    const runs = runsDir(dataDir, dirs);
    checkReportTargets(options, dirs);
    const processes = await openProcessSource();
    const target = pid === undefined ? undefined : await findTarget(pid, processes);
    if (pid !== undefined && !target) throw new BadInputError(`no process with pid ${pid}`);
    // One scan now, unrecorded: it starts the scan workers and warms the code, so the run's first poll
    // is quick. An announced run's first test starts a few ms after its announcement; a slow first poll
    // would meet its first handles late and place them in the wrong test.
    await holders.scan({ dirs });
    const inbox = Inbox.open(dataDir, dirs);
    cleanups.push(() => inbox.close());
    const signals = stopSignals();
    cleanups.push(signals.dispose);
    const targets = { ...options, stepSummary: process.env.GITHUB_STEP_SUMMARY };
    const log = (line: string) => process.stderr.write(line);
    const context: AttachContext = { dirs, holders, processes, runsDir: runs, inbox, targets, stopped: signals.stopped, log };
    if (target) await followProcess(target, context, cleanups);
    else await followAnnouncedRuns(context, cleanups);
    return 0;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
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

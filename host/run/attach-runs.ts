// Runs holdwatch did not start, followed as `holdwatch attach` does: one process and its tree until it
// exits, or each run a probe announces in the inbox until told to stop. Either way the journal, reports
// and summary are those of `holdwatch run`, and nothing is ever killed. What to say goes to `log`; the
// front end prints it.
import { extname } from 'node:path';
import type { RunRecord } from '../../contract/runs.js';
import type { HolderSource, ProcessSource, WatchDir } from '../../core/platform.js';
import { openHolderSource, openProcessSource } from '../../native/index.js';
import { runsDir } from '../data-dir.js';
import type { Announcement } from '../inbox/inbox-announce.js';
import { Inbox, tryUnlink } from '../inbox/inbox-dir.js';
import { InboxWatcher } from '../inbox/inbox-watch.js';
import { resolveAndStepOut, type WorkingDirectory } from '../resolve-dir.js';
import { AttachedRun, descendsFrom, findTarget, type AttachTarget } from './attached-run.js';
import { runEndLines } from './run-end-lines.js';
import { checkReportTargets, type ReportTargets } from './report-targets.js';
import { DisposableStore } from '../../core/disposable-store.js';
import { BadInputError, messageOf } from '../../core/errors.js';

export interface AttachRunsOptions {
  watch: string[];
  /** The process to follow with its tree until it exits; without, each run a probe announces. */
  pid?: number;
  /** Absolute; checked before anything is followed. */
  targets: ReportTargets;
  dataDir: string;
  workingDirectory: WorkingDirectory;
  /** Installs the front end's stop (Ctrl-C, SIGTERM) once everything is ready; the runs are then recorded as they stand. */
  stopSignals: () => { stopped: Promise<void>; dispose: () => void };
  /** One line to show the user (with its newline). */
  log: (line: string) => void;
}

/** `holdwatch attach`: resolves the dirs, then follows the process `pid` or each announced run, and records them. */
export async function attachRuns(options: AttachRunsOptions): Promise<void> {
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  const { pid, targets, dataDir, log } = options;
  const holders = await openHolderSource({ walkThread: 'worker' });
  // Released last-opened first, past a failing one (the backend last).
  const owned = new DisposableStore();
  owned.add(holders);
  try {
    const dirs: WatchDir[] = [];
    for (const input of options.watch) dirs.push(await resolveAndStepOut(holders, input, options.workingDirectory));
    const runs = runsDir(dataDir, dirs);
    checkReportTargets(targets, dirs);
    const processes = await openProcessSource();
    const target = pid === undefined ? undefined : await findTarget(pid, processes);
    if (pid !== undefined && !target) throw new BadInputError(`no process with pid ${pid}`);
    // One scan now, unrecorded: it starts the scan workers and warms the code, so the run's first poll
    // is quick. An announced run's first test starts a few ms after its announcement; a slow first poll
    // would meet its first handles late and place them in the wrong test.
    await holders.scan({ dirs });
    const inbox = Inbox.open(dataDir, dirs);
    owned.defer(() => inbox.close());
    const signals = options.stopSignals();
    owned.add(signals);
    const context: AttachContext = { dirs, holders, processes, runsDir: runs, inbox, targets, stopped: signals.stopped, log };
    if (target) await followProcess(target, context, owned);
    else await followAnnouncedRuns(context, owned);
  } finally {
    await owned.dispose();
  }
}

export interface AttachContext {
  dirs: WatchDir[];
  holders: HolderSource;
  processes: ProcessSource;
  runsDir: string;
  inbox: Inbox;
  targets: ReportTargets;
  /** Resolves when the user stops (Ctrl-C / SIGTERM): the runs still going are then recorded as they stand. */
  stopped: Promise<void>;
  /** One line to show the user (with its newline). */
  log: (line: string) => void;
}

/** One run: the process `target` and its tree, with the events of any probe announcing from inside it. */
export async function followProcess(target: AttachTarget, context: AttachContext, owned: DisposableStore): Promise<void> {
  const run = new AttachedRun(target, recordingSetup(context), context.processes);
  owned.add(run);
  run.start();
  const watcher = new InboxWatcher(
    context.inbox,
    (path, a) => void descendsFrom(a.pid, target.pid, context.processes).then((mine) => mine && run.addEvents(path), logError(context)),
    warnInvalid(context),
  );
  owned.defer(() => watcher.close());
  context.log(`holdwatch: attached to pid ${target.pid} (${target.command.join(' ')}); run ${run.runId}\n`);
  void context.stopped.then(() => run.stop());
  await run.waitForExit();
  watcher.check(); // a probe that announced just before the end
  watcher.close();
  finished(context, run, await run.finish(context.targets), context.targets);
}

/** Every announced run, each its own run, until stopped; then the ones still going are recorded too. */
export async function followAnnouncedRuns(context: AttachContext, owned: DisposableStore): Promise<void> {
  const active = new Map<number, AttachedRun>();
  const finishing = new Set<Promise<void>>();
  let queue = Promise.resolve();
  const onAnnounce = (path: string, a: Announcement) => {
    // One at a time, so two files of one process join one run.
    queue = queue.then(() => startOrJoin(path, a)).catch(logError(context));
  };
  const startOrJoin = async (path: string, a: Announcement) => {
    const running = active.get(a.pid);
    if (running) return running.addEvents(path);
    const info = await context.processes.processInfo(a.pid);
    if (!info) {
      context.log(`holdwatch: the run announced by pid ${a.pid} (${a.argv.join(' ')}) ended before holdwatch saw it; skipped\n`);
      return tryUnlink(path);
    }
    const run = new AttachedRun({ pid: a.pid, startedAtMs: info.startedAtMs, command: a.argv, cwd: a.cwd }, recordingSetup(context), context.processes);
    active.set(a.pid, run);
    owned.add(run);
    run.start();
    run.addEvents(path);
    context.log(`holdwatch: following pid ${a.pid} (${a.argv.join(' ')}); run ${run.runId}\n`);
    const done = run
      .waitForExit()
      .then(async () => {
        active.delete(a.pid);
        const targets = perRunTargets(context.targets, run.runId);
        finished(context, run, await run.finish(targets), targets);
      })
      .catch(logError(context))
      .finally(async () => {
        await run.dispose().catch(logError(context));
        finishing.delete(done);
      });
    finishing.add(done);
  };
  const watcher = new InboxWatcher(context.inbox, onAnnounce, warnInvalid(context));
  owned.defer(() => watcher.close());
  context.log(`holdwatch: waiting for runs announced in ${context.inbox.path} (Ctrl-C to stop)\n`);
  await context.stopped;
  watcher.close();
  await queue;
  for (const run of active.values()) run.stop();
  while (finishing.size > 0) await Promise.all([...finishing]);
}

function recordingSetup(context: AttachContext) {
  return { dirs: context.dirs, holders: context.holders, processes: context.processes, runsDir: context.runsDir, onError: logError(context) };
}

/** Last: the summary line says the run is fully recorded; the headline and the reports' place follow it. */
function finished(context: AttachContext, run: AttachedRun, record: RunRecord, targets: ReportTargets): void {
  // Tests are known only from a probe inside the runner; without one the report says "0 tests" — say why.
  if (record.tests.length === 0)
    context.log(
      `holdwatch: no tests recorded for run ${record.runId}: the process reported none (start it under \`holdwatch run\`, or with the pytest plugin or Node reporter, to see its tests); its holders are attributed by process only\n`,
    );
  const reports = [targets.report, targets.html, targets.json].filter((path): path is string => path !== undefined);
  context.log(runEndLines(record, run.journalPath, { reports }));
}

/** Several runs, one set of report paths: each run's reports get its id before the extension. */
function perRunTargets(targets: ReportTargets, runId: string): ReportTargets {
  const withId = (path: string | undefined) => {
    if (!path) return undefined;
    const ext = extname(path);
    return `${path.slice(0, path.length - ext.length)}-${runId}${ext}`;
  };
  return { report: withId(targets.report), json: withId(targets.json), html: withId(targets.html), redact: targets.redact, stepSummary: targets.stepSummary };
}

function warnInvalid(context: AttachContext): (path: string) => void {
  return (path) => context.log(`holdwatch: ignoring ${path}: not an announce file\n`);
}

function logError(context: AttachContext): (error: unknown) => void {
  return (error) => context.log(`holdwatch: ${messageOf(error)}\n`);
}

// `holdwatch attach --watch <dir> [--pid <pid>]`: runs holdwatch did not start. With --pid, follows that
// process and its descendants as one run until it exits. Without, listens on the inbox and follows each
// run a probe announces there (a RunSupervisor per run) until Ctrl-C / SIGTERM. Either way, the
// journal, reports and summary are those of `holdwatch run`, and nothing is ever killed.
import { extname, resolve } from 'node:path';
import { BadInputError } from '../core/errors.js';
import type { HolderSource, ProcessSource, WatchDir } from '../core/platform.js';
import { openHolderSource, openProcessSource } from '../native/index.js';
import { AttachedRun, descendsFrom, findTarget, type AttachTarget } from './attached-run.js';
import { runsDir } from './data-dir.js';
import type { Announcement } from './inbox-announce.js';
import { Inbox, tryUnlink } from './inbox-dir.js';
import { InboxWatcher } from './inbox-watch.js';
import { checkReportTargets, type ReportTargets } from './run-reports.js';

export interface AttachOptions extends ReportTargets {
  pid?: string;
  watch: string[];
}

interface Context {
  dirs: WatchDir[];
  holders: HolderSource;
  processes: ProcessSource;
  runsDir: string;
  inbox: Inbox;
  targets: ReportTargets;
  stopped: Promise<void>;
}

export async function attachCommand(options: AttachOptions): Promise<number> {
  if (options.watch.length === 0) throw new BadInputError('no directory to watch: add --watch <dir>');
  const pid = options.pid === undefined ? undefined : parsePid(options.pid);
  const holders = await openHolderSource({ threads: 2 });
  const cleanups: (() => void | Promise<void>)[] = [() => holders.dispose()];
  try {
    const dirs: WatchDir[] = [];
    for (const input of options.watch) dirs.push(await holders.resolveWatchDir(input));
    const runs = runsDir(dirs);
    checkReportTargets(options, dirs, (p) => resolve(p));
    const processes = await openProcessSource();
    const target = pid === undefined ? undefined : await findTarget(pid, processes);
    if (pid !== undefined && !target) throw new BadInputError(`no process with pid ${pid}`);
    // One scan now, unrecorded: it starts the scan workers and warms the code, so the run's first poll
    // is quick. An announced run's first test starts a few ms after its announcement; a slow first poll
    // would meet its first handles late and place them in the wrong test.
    await holders.scan({ dirs });
    const inbox = Inbox.open(dirs);
    cleanups.push(() => inbox.close());
    const signals = stopSignals();
    cleanups.push(signals.dispose);
    const context: Context = { dirs, holders, processes, runsDir: runs, inbox, targets: options, stopped: signals.stopped };
    if (target) await followPid(target, context, cleanups);
    else await followInbox(context, cleanups);
    return 0;
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

/** One run: the process `target` and its tree, with the events of any probe announcing from inside it. */
async function followPid(target: AttachTarget, c: Context, cleanups: (() => void)[]): Promise<void> {
  const run = new AttachedRun(target, { dirs: c.dirs, holders: c.holders, processes: c.processes, runsDir: c.runsDir }, c.processes);
  cleanups.push(() => run.dispose());
  run.start();
  const watcher = new InboxWatcher(
    c.inbox,
    (path, a) => void descendsFrom(a.pid, target.pid, c.processes).then((mine) => mine && run.addEvents(path), reportError),
    warnInvalid,
  );
  cleanups.push(() => watcher.close());
  process.stderr.write(`holdwatch: attached to pid ${target.pid} (${target.command.join(' ')}); run ${run.runId}\n`);
  void c.stopped.then(() => run.stop());
  await run.waitForExit();
  watcher.check(); // a probe that announced just before the end
  watcher.close();
  await run.finish(c.targets);
}

/** Every announced run, each its own run, until Ctrl-C / SIGTERM; then the ones still going are recorded too. */
async function followInbox(c: Context, cleanups: (() => void)[]): Promise<void> {
  const active = new Map<number, AttachedRun>();
  const finishing = new Set<Promise<void>>();
  let queue = Promise.resolve();
  const onAnnounce = (path: string, a: Announcement) => {
    // One at a time, so two files of one process join one run.
    queue = queue.then(() => startOrJoin(path, a)).catch(reportError);
  };
  const startOrJoin = async (path: string, a: Announcement) => {
    const running = active.get(a.pid);
    if (running) return running.addEvents(path);
    const info = await c.processes.processInfo(a.pid);
    if (!info) {
      process.stderr.write(`holdwatch: the run announced by pid ${a.pid} (${a.argv.join(' ')}) ended before holdwatch saw it; skipped\n`);
      return tryUnlink(path);
    }
    const run = new AttachedRun({ pid: a.pid, startedAtMs: info.startedAtMs, command: a.argv, cwd: a.cwd }, { dirs: c.dirs, holders: c.holders, processes: c.processes, runsDir: c.runsDir }, c.processes);
    active.set(a.pid, run);
    cleanups.push(() => run.dispose());
    run.start();
    run.addEvents(path);
    process.stderr.write(`holdwatch: following pid ${a.pid} (${a.argv.join(' ')}); run ${run.runId}\n`);
    const done = run
      .waitForExit()
      .then(async () => {
        active.delete(a.pid);
        await run.finish(perRunTargets(c.targets, run.runId));
      })
      .catch(reportError)
      .finally(() => {
        run.dispose();
        finishing.delete(done);
      });
    finishing.add(done);
  };
  const watcher = new InboxWatcher(c.inbox, onAnnounce, warnInvalid);
  cleanups.push(() => watcher.close());
  process.stderr.write(`holdwatch: waiting for runs announced in ${c.inbox.path} (Ctrl-C to stop)\n`);
  await c.stopped;
  watcher.close();
  await queue;
  for (const run of active.values()) run.stop();
  while (finishing.size > 0) await Promise.all([...finishing]);
}

/** Several runs, one set of report paths: each run's reports get its id before the extension. */
function perRunTargets(targets: ReportTargets, runId: string): ReportTargets {
  const withId = (path: string | undefined) => {
    if (!path) return undefined;
    const ext = extname(path);
    return `${path.slice(0, path.length - ext.length)}-${runId}${ext}`;
  };
  return { report: withId(targets.report), json: withId(targets.json), html: withId(targets.html), redact: targets.redact };
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

function warnInvalid(path: string): void {
  process.stderr.write(`holdwatch: ignoring ${path}: not an announce file\n`);
}

function reportError(error: unknown): void {
  process.stderr.write(`holdwatch: ${error instanceof Error ? error.message : String(error)}\n`);
}

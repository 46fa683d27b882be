// What holdwatch does, composed once for every front end: the CLI's commands and the library entry
// (index.ts) call these, then print. Each part loads when it is called, so `scan` pays for no run.
import type { Holder, Snapshot, WatchEvent } from '../contract/holders.js';
import type { LiveStackResult } from '../core/live-stack.js';
import type { RunRecord } from '../contract/runs.js';
import { scanRequestOf, type ScanOptions } from '../contract/scan-options.js';
import type { NamedHandle } from '../core/close-policy.js';
import { DisposableStore } from '../core/disposable-store.js';
import { BadInputError } from '../core/errors.js';
import type { ProcessInfo } from '../contract/holders.js';
import { takeSnapshot } from '../core/snapshot.js';
import { closeHandleIfSame, describeHandle, openHolderSource, openLiveStackSource } from '../native/index.js';
import { resolveAndStepOut, type WorkingDirectory } from './resolve-dir.js';
import type { AttachRunsOptions } from './run/attach-runs.js';
import type { SupervisedRunHandle, SupervisedRunOptions } from './run/supervised-run.js';
import { elapsedMs, systemClock } from './system-clock.js';
import { startDirWatch, type DirWatch } from './dir-watch.js';
import { WatchedDirChangedError } from './watched-dir-identity.js';

export { endProcessIfSame } from '../native/index.js';
export type { WorkingDirectory };

/**
 * Where the front end's own current directory goes: a CLI steps out of a watched dir (it would hold it),
 * the library leaves its caller's alone (and reports it, if it holds one).
 */
export interface DirOptions {
  workingDirectory?: WorkingDirectory;
}

/** One snapshot of what holds `dir` now, as `options` ask. Rejects with BadInputError for a dir that is not one. */
export async function scanDir(dir: string, options: DirOptions & ScanOptions = {}): Promise<Snapshot> {
  const source = await openHolderSource({ walkThread: 'caller', once: true });
  try {
    const resolved = options.workingDirectory ? await resolveAndStepOut(source, dir, options.workingDirectory) : await source.resolveWatchDir(dir);
    return await takeSnapshot(source, resolved, systemClock, elapsedMs, scanRequestOf(options));
  } finally {
    await source.dispose();
  }
}

export interface WatchDirsOptions extends DirOptions {
  /** Full-system poll period. */
  intervalMs: number;
  /** Each poll: the holders that appeared or went, and all of them now. */
  onPoll: (events: WatchEvent[], current: Holder[]) => void;
  /** The watch failed and stopped (a watched dir went away...). */
  onError: (error: unknown) => void;
  /**
   * Scans fail for a passing lack of resources (EMFILE): the watch goes on, trying again less and less
   * often (host/watch-retry.ts); `sentence` says why and when. Without it the watch retries quietly.
   */
  onRetrying?: (sentence: string) => void;
  /** The first poll that worked after failed ones. */
  onRecovered?: () => void;
  /**
   * Given: a watched dir replaced by a link or another dir of its name is followed (watched anew under
   * its name), and `sentence` says so; its holders so far go as `gone`. Absent: the watch stops with a
   * WatchedDirChangedError. A deleted dir always stops it.
   */
  onFollowDir?: (sentence: string) => void;
}

export interface LiveWatch {
  /** The watched dirs, resolved (display form). */
  readonly dirs: readonly string[];
  /** The holders as of the last poll. */
  current(): Holder[];
  /** Stops polling and releases the backend (its workers). Idempotent. */
  stop(): Promise<void>;
}

/** Watches `dirs` live until stop(); resolves once the dirs are resolved and the first poll is scheduled. */
export async function watchDirs(dirs: readonly string[], options: WatchDirsOptions): Promise<LiveWatch> {
  // The watch of the dirs (the one followed to, after a replacement), then the backend: released in that order.
  const owned = new DisposableStore();
  const source = owned.add(await openHolderSource({ walkThread: 'worker' }));
  let watch: DirWatch | null = null;
  owned.add({ dispose: () => watch?.dispose() });
  const start = () => startDirWatch(source, dirs, { ...options, onStopped: (error) => void followOrStop(error) });
  const followOrStop = async (error: unknown): Promise<void> => {
    const before = watch;
    if (!options.onFollowDir || !(error instanceof WatchedDirChangedError) || !error.followable || !before) return options.onError(error);
    await before.dispose();
    try {
      const after = await start();
      if (owned.isDisposed) return void (await after.dispose());
      watch = after;
    } catch (startError) {
      return options.onError(startError);
    }
    const at = new Date(systemClock.now()).toISOString();
    options.onPoll(
      before.current().map((holder) => ({ type: 'gone', at, holder })),
      [],
    );
    options.onFollowDir(`${error.message}; watching what it names now: ${watch.dirs.map((d) => d.display).join(', ')}`);
  };
  try {
    watch = await start();
    return { dirs: watch.dirs.map((d) => d.display), current: () => watch?.current() ?? [], stop: () => owned.dispose() };
  } catch (error) {
    await owned.dispose();
    throw error;
  }
}

/** Starts a supervised run (host/run/supervised-run.ts); resolves once its command is running. */
export async function startRun(options: SupervisedRunOptions): Promise<SupervisedRunHandle> {
  return (await import('./run/supervised-run.js')).startSupervisedRun(options);
}

/** Follows runs holdwatch did not start (host/run/attach-runs.ts) until they end or the front end stops. */
export async function attachRuns(options: AttachRunsOptions): Promise<void> {
  return (await import('./run/attach-runs.js')).attachRuns(options);
}

/**
 * A recorded run's journal read back into its record (`run` is how the user named it); `rejected`
 * counts the lines that were not entries.
 */
export async function recordOfJournal(path: string, run = path): Promise<{ record: RunRecord; rejected: number }> {
  const [{ readJournal }, { RunRecorder }] = await Promise.all([import('./run/journal-reader.js'), import('../core/run/run-recorder.js')]);
  const { entries, rejected } = readJournalOrRefuse(path, readJournal);
  if (entries[0]?.t !== 'run-start') throw new BadInputError(`not a holdwatch run journal: ${run}`);
  const recorder = new RunRecorder();
  for (const entry of entries) recorder.apply(entry);
  return { record: recorder.record(), rejected };
}

function readJournalOrRefuse<T>(path: string, read: (path: string) => T): T {
  try {
    return read(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR') throw new BadInputError(`cannot read ${path}: ${code}`);
    throw error;
  }
}

/** The live stack of process `pid` (only while it is the one started at `startedAtMs`, when given). */
export async function liveStackOf(pid: number, startedAtMs: number | undefined, dumpsDir: string): Promise<LiveStackResult> {
  const source = await openLiveStackSource({ dumpsDir });
  return source.liveStack(pid, startedAtMs);
}

/** A handle found under a watched dir, ready to be closed once the user agreed. */
export interface HandleToClose {
  info: ProcessInfo;
  named: NamedHandle;
  /** Closes it, only while it is still the same handle on the same file. */
  close: () => Promise<void>;
}

/**
 * Finds handle `handle` of process `pid` naming a file under `under`, and hands it to `decide` (the
 * front end asks the user there). The backend is released whatever happens.
 */
export async function withHandleToClose<T>(pid: number, handle: string, under: string, decide: (found: HandleToClose) => Promise<T>): Promise<T> {
  const source = await openHolderSource();
  try {
    const dir = await source.resolveWatchDir(under);
    const info = await source.processInfo(pid);
    if (!info) throw new BadInputError(`no process has pid ${pid}`);
    const target = { pid, startedAtMs: info.startedAtMs, handle, dirs: [dir], ownPids: [process.pid] };
    const named = await describeHandle(target);
    if (named === null) throw new BadInputError(`handle ${handle} of ${info.name} (PID ${pid}) names no file under ${dir.display}: nothing closed`);
    return await decide({ info, named, close: () => closeHandleIfSame(target, named.path) });
  } finally {
    await source.dispose();
  }
}

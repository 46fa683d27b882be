// holdwatch as a library: `import { scan, watch, run } from 'holdwatch'`. The same backends, contract
// and run supervision as the CLI, without its printing. Importing this loads no Electron, no UI and no
// platform backend until a function is called (koffi only on Windows, on the first scan).
//
// Unlike the CLI, the library never changes the calling process's current directory: a caller whose
// cwd (or any open file) lies under a watched directory is a holder there, and is reported as one.
import type { Holder, Snapshot, WatchEvent } from './contract/holders.js';
import { dataDirOf } from './host/data-dir.js';
import { scanDir, startRun, watchDirs } from './host/holdwatch.js';
import type { SupervisedRun } from './host/run/supervised-run.js';
import { messageOf } from './core/errors.js';

export type { AncestryEntry, DeniedProcess, HandleAccess, Holder, HolderKind, ProcessInfo, Snapshot, WatchEvent } from './contract/holders.js';
export type { AttributedHolder, Attribution, FailureRecord, RunRecord, TestEvent, TestRecord, Verdict } from './contract/runs.js';
export type { OpenStack, StackFrame, StackLookup } from './contract/stacks.js';
export { BadInputError, PlatformError, UnsupportedPlatformError } from './core/errors.js';

/** One snapshot of what holds `dir` now, as `holdwatch scan --json` prints it. Rejects with BadInputError for a dir that is not one. */
export async function scan(dir: string): Promise<Snapshot> {
  return scanDir(dir);
}

export interface WatchOptions {
  /** Each holder that appears or goes, as `holdwatch watch --json` prints them. */
  onEvent: (event: WatchEvent) => void;
  /** The watch failed and stopped (a watched dir went away...); without it, the failure is thrown from stop(). */
  onError?: (error: unknown) => void;
  /** Full-system poll period (default 500 ms, as the CLI). */
  intervalMs?: number;
}

export interface Watch {
  /** The watched dirs, resolved (display form). */
  readonly dirs: readonly string[];
  /** The holders as of the last poll. */
  current(): Holder[];
  /** Stops polling and releases the backend (its workers). Idempotent. */
  stop(): Promise<void>;
}

/** Watches `dirs` live until stop(); resolves once the dirs are resolved and the first poll is scheduled. */
export async function watch(dirs: string | readonly string[], options: WatchOptions): Promise<Watch> {
  let failure: Error | undefined;
  const live = await watchDirs(typeof dirs === 'string' ? [dirs] : dirs, {
    intervalMs: options.intervalMs ?? 500,
    onPoll: (events) => events.forEach(options.onEvent),
    onError: (error) => {
      if (options.onError) options.onError(error);
      else failure = error instanceof Error ? error : new Error(String(error));
    },
  });
  return {
    dirs: live.dirs,
    current: () => live.current(),
    stop: async () => {
      await live.stop();
      if (failure) throw failure;
    },
  };
}

export interface RunOptions {
  /** The directories to watch while the command runs. */
  watch: string | readonly string[];
  /** The command's working directory (default: the caller's). */
  cwd?: string;
  /** The command's environment (default: the caller's); holdwatch adds its run tag and probes to it. */
  env?: NodeJS.ProcessEnv;
  /** Where the run's journal goes (default: the data dir the CLI uses, HOLDWATCH_DATA_DIR honoured). */
  dataDir?: string;
  /** Each chunk of the command's output, unchanged; default: written to this process's stdout/stderr. */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
  /** A problem that does not end the run (a scan that failed, a probe log unreadable); default: one line on stderr. */
  onError?: (error: unknown) => void;
}

export type RunResult = SupervisedRun;

/** Runs a test command as `holdwatch run` does (its stdin is not this process's) and resolves with its record. */
export async function run(command: readonly string[], options: RunOptions): Promise<RunResult> {
  const env = options.env ?? process.env;
  const started = await startRun({
    command: [...command],
    cwd: options.cwd ?? process.cwd(),
    watch: typeof options.watch === 'string' ? [options.watch] : [...options.watch],
    env,
    dataDir: options.dataDir ?? dataDirOf(env, process.platform),
    io: {
      stdin: 'ignore',
      output: options.onOutput ?? ((stream, chunk) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk)),
      userSeesTerminal: false,
      forwardSignals: false,
    },
    onError: options.onError ?? ((error) => process.stderr.write(`holdwatch: ${messageOf(error)}\n`)),
  });
  return started.done;
}

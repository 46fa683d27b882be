// The details panel's live stack: `holdwatch stack <pid> --json` in a child process, so neither
// gdb's seconds nor MiniDumpWriteDump (a synchronous FFI call that suspends the target's threads)
// run on the host's event loop, and a capture that hangs is ended at a deadline with its process.
import { posix, win32 } from 'node:path';
import type { LiveStackResult } from '../../contract/live-stack.js';
import { LiveStackResultSchema } from '../../contract/live-stack.js';
import { EXIT_BAD_INPUT, EXIT_STACK_UNAVAILABLE } from '../../contract/exit-codes.js';
import { BadInputError } from '../../core/errors.js';
import { parseJsonOrUndefined } from '../../core/json-text.js';
import type { WatchDir } from '../../core/platform.js';
// Generic despite its folder: spawn with a deadline, SIGTERM then SIGKILL, always settles.
import { runTool } from '../../native/linux/live-stack-tools.js';
import { CLI_SCRIPT } from '../install-paths.js';
import { refuseInsideWatched } from '../watched-dirs.js';

/** Above the worst case inside (py-spy, gdb, eu-stack: 10 s each plus 2 s grace), so it only ends a hung worker. */
export const CAPTURE_DEADLINE_MS = 45_000;

export interface CaptureOptions {
  /** holdwatch's data dir: Windows writes the minidump to `<dataDir>/dumps`. */
  dataDir: string;
  /** The environment the `holdwatch stack` child starts with (the host's own). */
  env: NodeJS.ProcessEnv;
  deadlineMs?: number;
  /** Aborted when the page that asked is gone: the capture ends with its debugger. */
  signal?: AbortSignal;
  /**
   * Called once a capture was ended (deadline or signal) and its debugger is gone: a debugger ended
   * while it walks a target's threads leaves the target stopped (group-stop), for the caller to resume.
   */
  onEnded?: () => Promise<void>;
}

/** Where minidumps go (as stack-command.ts puts them); refused inside a watched directory (holdwatch never writes there). */
export function dumpsDirOutside(dataDir: string, watched: readonly WatchDir[], platform: NodeJS.Platform = process.platform): string {
  const dir = (platform === 'win32' ? win32 : posix).join(dataDir, 'dumps');
  refuseInsideWatched(
    dir,
    watched,
    (w) => `a minidump would be written to ${dir}, inside the watched directory ${w.display}; set HOLDWATCH_DATA_DIR elsewhere and try again`,
  );
  return dir;
}

/**
 * The live stack of the process `pid` that started at `startedAtMs`, or what is missing; BadInputError
 * when it is gone. The worker checks the identity itself, right before it attaches: between the
 * caller's check and the attach lies a Node start-up, time enough for the pid to be reused.
 */
export async function captureLiveStackInWorker(pid: number, startedAtMs: number, options: CaptureOptions): Promise<LiveStackResult> {
  const deadlineMs = options.deadlineMs ?? CAPTURE_DEADLINE_MS;
  // Under Electron, execPath is the app: ELECTRON_RUN_AS_NODE makes it the plain Node the CLI needs.
  const env = { ...options.env, HOLDWATCH_DATA_DIR: options.dataDir, ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };
  const run = await runTool(process.execPath, [CLI_SCRIPT, 'stack', String(pid), '--started-at', String(Math.round(startedAtMs)), '--json'], {
    deadlineMs,
    env,
    ...(options.signal ? { signal: options.signal } : {}),
    ownGroup: true,
  });
  if (run.aborted || run.timedOut) await options.onEnded?.();
  if (run.aborted) return { kind: 'unavailable', pid, reason: 'the capture was ended: the page that asked for it is gone', nextStep: 'ask again' };
  if (run.timedOut) {
    return {
      kind: 'unavailable',
      pid,
      reason: `the capture took longer than ${deadlineMs} ms and was ended`,
      nextStep: `run \`holdwatch stack ${pid}\` in a terminal to see where it stops`,
    };
  }
  const line =
    run.stderr
      .trim()
      .split('\n')[0]
      ?.replace(/^holdwatch: /, '') ?? '';
  if (run.code === 0 || run.code === EXIT_STACK_UNAVAILABLE) {
    const parsed = LiveStackResultSchema.safeParse(parseJsonOrUndefined(run.stdout));
    if (parsed.success) return parsed.data;
  }
  if (run.code === EXIT_BAD_INPUT) throw new BadInputError(line || `process ${pid} has exited`);
  throw new Error(`holdwatch stack ${pid} failed (exit ${run.code}): ${line || 'no output'}`);
}

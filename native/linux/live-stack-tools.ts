// Finding and running the outside stack tools (py-spy, gdb, eu-stack) with a deadline. A debugger
// that hangs (a target in uninterruptible sleep, a huge core of symbols) must not hang holdwatch.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The first executable `name` on PATH, or null. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Ended because `signal` was aborted. */
  aborted: boolean;
}

export interface ToolOptions {
  deadlineMs: number;
  /** After SIGTERM, how long the tool gets to detach before SIGKILL. */
  graceMs?: number;
  /** Output beyond this is dropped (a runaway tool must not fill memory). */
  maxBytes?: number;
  /** The tool's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Ends the tool as the deadline does, when whoever waits for it is gone. */
  signal?: AbortSignal;
  /**
   * POSIX: the tool in a process group of its own, ended as a group: a tool that runs a debugger
   * itself (`holdwatch stack`) dies on SIGTERM without passing it on, and its debugger would stay
   * attached, its target stopped.
   */
  ownGroup?: boolean;
}

/** Runs `file args`, ends it at the deadline or on `signal` (SIGTERM, then SIGKILL), and always settles. */
export function runTool(file: string, args: readonly string[], options: ToolOptions): Promise<ToolRun> {
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const group = options.ownGroup === true && process.platform !== 'win32';
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, windowsHide: true, detached: group });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const kill = (signal: NodeJS.Signals) => {
      if (!group || child.pid === undefined) return void child.kill(signal);
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group has ended
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      if ((outBytes += d.length) <= maxBytes) out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if ((errBytes += d.length) <= maxBytes) err.push(d);
    });
    // SIGTERM first: gdb quits on it and detaches from the processes it attached to.
    const end = () => {
      if (killTimer) return;
      kill('SIGTERM');
      killTimer = setTimeout(() => kill('SIGKILL'), options.graceMs ?? 2000);
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      end();
    }, options.deadlineMs);
    const abort = () => {
      aborted = true;
      end();
    };
    if (options.signal?.aborted) abort();
    else options.signal?.addEventListener('abort', abort, { once: true });
    const settle = () => {
      clearTimeout(deadline);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', abort);
    };
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (code) => {
      const done = () => {
        settle();
        resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), timedOut, aborted });
      };
      // An ended group's leader dies at once; the debugger it started takes its time to quit (its
      // SIGKILL still pending): settled once that is gone, so the caller may let its target run again.
      if (group && killTimer) void groupGone(child.pid!).then(done);
      else done();
    });
  });
}

/** Resolves once no process is left in the process group `pgid`. */
async function groupGone(pgid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

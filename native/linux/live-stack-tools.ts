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
}

export interface ToolOptions {
  deadlineMs: number;
  /** After SIGTERM, how long the tool gets to detach before SIGKILL. */
  graceMs?: number;
  /** Output beyond this is dropped (a runaway tool must not fill memory). */
  maxBytes?: number;
  /** The tool's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** Runs `file args`, ends it at the deadline (SIGTERM, then SIGKILL), and always settles. */
export function runTool(file: string, args: readonly string[], options: ToolOptions): Promise<ToolRun> {
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env, windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      if ((outBytes += d.length) <= maxBytes) out.push(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if ((errBytes += d.length) <= maxBytes) err.push(d);
    });
    // SIGTERM first: gdb quits on it and detaches from the processes it attached to.
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), options.graceMs ?? 2000);
    }, options.deadlineMs);
    const settle = () => {
      clearTimeout(deadline);
      clearTimeout(killTimer);
    };
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (code) => {
      settle();
      resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), timedOut });
    });
  });
}

// Starts the scanner worker as a plain child process with the host's rights: off Windows, and in
// tests. (Linux has no per-process elevation to ask for: the next step there is `sudo holdwatch ui`.)
import { spawn } from 'node:child_process';
import type { LaunchedWorker, WorkerLauncher } from './remote-holder-source.js';

/** `program` then `prefixArgs` (e.g. node and the CLI script), then the worker's own arguments. */
export function spawnLauncher(program: string, prefixArgs: readonly string[], env: Record<string, string> = {}): WorkerLauncher {
  return async (args) => {
    const child = spawn(program, [...prefixArgs, ...args], { stdio: 'ignore', windowsHide: true, env: { ...process.env, ...env } });
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    const worker: LaunchedWorker = {
      pid: child.pid ?? null,
      waitForExit: async (ms) => {
        if (child.exitCode !== null || child.signalCode !== null) return true;
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
        try {
          return await Promise.race([exited.then(() => true as const), timedOut]);
        } finally {
          clearTimeout(timer);
        }
      },
      terminate: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill();
      },
      close: () => undefined,
    };
    return worker;
  };
}

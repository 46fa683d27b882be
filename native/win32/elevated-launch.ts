// "Scan as administrator": the scanner worker started elevated through the UAC prompt
// (ShellExecuteExW "runas", SEE_MASK_NOCLOSEPROCESS), its process handle owned here and closed once.
// Under Wine there is no UAC: runas starts the program at once, with the same (administrator) rights.
import { Worker } from 'node:worker_threads';
import { unpackedUrl } from '../../core/asar-unpacked.js';
import { ElevationDeclinedError, type LaunchedWorker, type WorkerLauncher } from '../remote/remote-holder-source.js';
import { closeHandle, processExited, terminateProcess } from './kernel32.js';
import type { ShellExecuteAnswer, ShellExecuteRequest } from './shell-execute-thread.js';
import { Win32Error } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';

/** The user answered No (or closed) the UAC prompt. */
export const ERROR_CANCELLED = 1223;

/** `program prefixArgs... args...`, elevated; a declined prompt rejects with ElevationDeclinedError. */
export function elevatedLauncher(program: string, prefixArgs: readonly string[]): WorkerLauncher {
  return async (args) => {
    const answer = await shellExecuteOffThread({ verb: 'runas', file: program, parameters: [...prefixArgs, ...args].map(quoteWindowsArg).join(' ') });
    if ('error' in answer) {
      const { api, code, message } = answer.error;
      throw elevationError(typeof code === 'number' ? new Win32Error(api, code) : new Error(message));
    }
    return processWorker(BigInt(answer.handle) as ProcessHandle);
  };
}

/** ShellExecuteExW on a worker thread (see shell-execute-thread.ts): the host's event loop never waits on the UAC prompt. */
function shellExecuteOffThread(request: ShellExecuteRequest): Promise<ShellExecuteAnswer> {
  const thread = new Worker(unpackedUrl(new URL('./shell-execute-thread.js', import.meta.url)), { workerData: request });
  return new Promise<ShellExecuteAnswer>((resolve, reject) => {
    thread.once('message', (answer: ShellExecuteAnswer) => resolve(answer));
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`the ShellExecuteExW thread exited (${code}) without an answer`)));
  });
}

/** ERROR_CANCELLED becomes ElevationDeclinedError; anything else passes through. */
export function elevationError(error: unknown): unknown {
  return error instanceof Win32Error && error.errorCode === ERROR_CANCELLED ? new ElevationDeclinedError('Elevation was declined') : error;
}

function processWorker(handle: ProcessHandle): LaunchedWorker {
  let closed = false;
  const exited = () => closed || processExited(handle);
  return {
    pid: null,
    async waitForExit(ms) {
      const until = performance.now() + ms;
      while (!exited()) {
        if (performance.now() >= until) return false;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return true;
    },
    terminate() {
      // An unelevated host may lack the right to end an elevated worker; the worker still leaves
      // when its pipe closes, which is the path that matters.
      if (!closed && !processExited(handle)) {
        try {
          terminateProcess(handle, 1);
        } catch {
          // ERROR_ACCESS_DENIED across integrity levels: nothing more to do from here
        }
      }
    },
    close() {
      if (closed) return;
      closed = true;
      closeHandle(handle);
    },
  };
}

/** One argument as CommandLineToArgvW reads it back (quotes, and backslashes before quotes, doubled). */
export function quoteWindowsArg(arg: string): string {
  if (arg.length > 0 && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

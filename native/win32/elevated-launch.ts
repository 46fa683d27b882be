// "Scan as administrator": the scanner worker started elevated through the UAC prompt
// (ShellExecuteExW "runas", SEE_MASK_NOCLOSEPROCESS), its process handle owned here and closed once.
// Under Wine there is no UAC: runas starts the program at once, with the same (administrator) rights.
import type { LaunchedWorker, WorkerLauncher } from '../remote/remote-holder-source.js';
import { closeHandle, processExited, terminateProcess } from './kernel32.js';
import { shellExecute } from './shell32.js';
import { Win32Error } from './win-errors.js';

/** The user answered No (or closed) the UAC prompt. */
export const ERROR_CANCELLED = 1223;

export class ElevationDeclinedError extends Error {
  override readonly name = 'ElevationDeclinedError';
}

/** `program prefixArgs... args...`, elevated; a declined prompt rejects with ElevationDeclinedError. */
export function elevatedLauncher(program: string, prefixArgs: readonly string[]): WorkerLauncher {
  return async (args) => {
    let handle;
    try {
      handle = shellExecute('runas', program, [...prefixArgs, ...args].map(quoteWindowsArg).join(' '));
    } catch (error) {
      throw elevationError(error);
    }
    return processWorker(handle);
  };
}

/** ERROR_CANCELLED becomes ElevationDeclinedError; anything else passes through. */
export function elevationError(error: unknown): unknown {
  return error instanceof Win32Error && error.errorCode === ERROR_CANCELLED ? new ElevationDeclinedError('Elevation was declined') : error;
}

function processWorker(handle: ReturnType<typeof shellExecute>): LaunchedWorker {
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

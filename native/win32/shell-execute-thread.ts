// Worker-thread entry: one ShellExecuteExW call, off the host's event loop. With verb "runas" the
// call returns only once the UAC prompt is answered, so it must not run on the main thread; and
// GetLastError (ERROR_CANCELLED) can only be read on the thread that made the call, which koffi's
// async calls do not allow (they run on a pool thread and keep its last error there).
import { parentPort, workerData } from 'node:worker_threads';
import { PlatformError } from '../../core/errors.js';
import { shellExecute } from './shell32.js';

export interface ShellExecuteRequest {
  verb: string;
  file: string;
  parameters: string;
}

/** The process handle as a decimal string (bigint does not survive postMessage as such), or the failure. */
export type ShellExecuteAnswer = { handle: string } | { error: { api: string; code: number | string; message: string } };

const { verb, file, parameters } = workerData as ShellExecuteRequest;
let answer: ShellExecuteAnswer;
try {
  answer = { handle: shellExecute(verb, file, parameters).toString() };
} catch (error) {
  answer = {
    error:
      error instanceof PlatformError
        ? { api: error.api, code: error.code, message: error.message }
        : { api: 'ShellExecuteExW', code: 'thrown', message: String(error) },
  };
}
parentPort?.postMessage(answer);

// Worker-thread side of ScanPool: walks the pids it is given and posts the result back.
import { parentPort } from 'node:worker_threads';
import { walkPids, type MatchDir } from './fd-walk.js';

parentPort?.on('message', (request: { pids: number[]; dirs: MatchDir[] }) => {
  try {
    parentPort?.postMessage({ ok: true, result: walkPids(request.pids, request.dirs) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: String(error) });
  }
});

// The walk thread of ScanPool: walks what it is asked to and posts the result back, remembering each
// process's fd kinds and rows between walks (fd-kind-cache.ts, fd-row-memo.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { FdKindCache } from './fd-kind-cache.js';
import { FdRowMemo } from './fd-row-memo.js';
import { KoffiLoadGate } from '../koffi-load-gate.js';
import { walkPids } from './fd-walk.js';
import { libcProcReader, nodeProcReader } from './proc-reader.js';
import { adoptBootTimeMs } from './proc-stat.js';
import { QuietProcesses } from './quiet-processes.js';
import { MapsMemo } from './maps-memo.js';
import type { ScanWorkerData, WorkerRequest } from './scan-pool.js';
import { packWalk } from './walk-codec.js';

const kinds = new FdKindCache();
const memo = new FdRowMemo();
const quiet = new QuietProcesses();
const maps = new MapsMemo();
// libc from the first walk: koffi loads here while the thread boots, off the caller's thread; not at
// all when the pool is ending this thread already (native/koffi-load-gate.ts).
const gate = (workerData as ScanWorkerData | null)?.koffiGate;
const reader = (gate ? KoffiLoadGate.of(gate).load(libcProcReader) : libcProcReader()) ?? nodeProcReader;

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    adoptBootTimeMs(request.bootTimeMs);
    const result = walkPids(request.pids, request.dirs, {
      kinds,
      memo,
      quiet,
      maps,
      reader,
      walkId: request.walkId,
      idleCheck: request.idleCheck,
      ...(request.full ? { cover: request.pids } : {}),
    });
    parentPort?.postMessage({ ok: true, packed: packWalk(result, request.dirs) });
  } catch (error) {
    // Rows made by this walk were never received: both sides start again from nothing.
    memo.clear();
    parentPort?.postMessage({ ok: false, error: String(error) });
  }
});

// Worker-thread side of ScanPool: walks its share of the pids (then helps with the others'), and
// posts the result back.
import { parentPort } from 'node:worker_threads';
import { FdKindCache } from './fd-kind-cache.js';
import { walkPids } from './fd-walk.js';
import { PidShares } from './pid-shares.js';
import { adoptBootTimeMs } from './proc-stat.js';
import type { WorkerRequest } from './scan-pool.js';
import { packWalk } from './walk-codec.js';

// This thread's share of the kind cache: ScanPool sends the same pids here poll after poll.
const kinds = new FdKindCache();

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    adoptBootTimeMs(request.bootTimeMs);
    const shares = new PidShares(request.shares);
    if (!shares.join()) return void parentPort?.postMessage({ ok: true, packed: null });
    const cover = request.full ? { cover: shares.share(request.share) } : {};
    const result = walkPids(shares.claimAll(request.share), request.dirs, { kinds, ...cover });
    parentPort?.postMessage({ ok: true, packed: packWalk(result, request.dirs) });
  } catch (error) {
    parentPort?.postMessage({ ok: false, error: String(error) });
  }
});

// The name worker's entry point: `node name-worker.js`, JSON lines in on stdin, out on stdout.
// Started by NameWorkerClient with process.execPath (the same node and the same dist code); its
// environment says the query deadline and the pool size (bounded-call.ts).
import { BoundedCalls, maxStuckCalls, queryDeadlineMs } from './bounded-call.js';
import { enableDebugPrivilege } from './debug-privilege.js';
import { NameResolver } from './name-resolver.js';
import { serveNameRequests } from './name-worker-loop.js';

// Inherited from an elevated host with the token, but a worker started otherwise would lack it.
try {
  enableDebugPrivilege();
} catch {
  // Only an elevated worker gains from it; naming works without.
}
serveNameRequests(new NameResolver(new BoundedCalls(queryDeadlineMs(process.env), maxStuckCalls(process.env))));

// The name worker's entry point: `node name-worker.js`, JSON lines in on stdin, out on stdout.
// Started by NameWorkerClient with process.execPath (the same node and the same dist code).
import { NameResolver } from './name-resolver.js';
import { serveNameRequests } from './name-worker-loop.js';

serveNameRequests(new NameResolver());

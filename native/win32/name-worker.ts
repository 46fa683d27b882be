// The name worker's entry point: `node name-worker.js`, JSON lines in on stdin, out on stdout.
// Started by NameWorkerClient with process.execPath (the same node and the same dist code).
import { createInterface } from 'node:readline';
import { PlatformError } from '../../core/errors.js';
import { isDenied, NameResolver } from './name-resolver.js';
import { NameRequestSchema, STALL_ENV, type WorkerMessage } from './worker-protocol.js';
import type { RemoteHandleValue } from './win-types.js';

const stallText = process.env[STALL_ENV];

function send(message: WorkerMessage): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** Test hook: blocks this thread the way a pipe-name query does, with no way back. */
function stallForever(): never {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  for (;;) Atomics.wait(cell, 0, 0);
}

const resolver = new NameResolver(stallText ? (name) => name.includes(stallText) && stallForever() : undefined);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const parsed = NameRequestSchema.safeParse(JSON.parse(line));
  if (!parsed.success) {
    send({ type: 'fatal', message: `bad request: ${parsed.error.message.slice(0, 200)}` });
    return;
  }
  const request = parsed.data;
  resolver.prune(new Map(request.live.map((p) => [p.pid, BigInt(p.createTime)])));
  request.items.forEach((item, index) => {
    try {
      const answer = resolver.resolve(item.pid, BigInt(item.handle) as RemoteHandleValue);
      send({ type: 'named', id: request.id, index, ...answer });
    } catch (error) {
      const failure = error instanceof PlatformError ? { api: error.api, code: error.code } : { api: 'name', code: String(error) };
      send({ type: 'named', id: request.id, index, name: null, directory: false, deletePending: false, error: { ...failure, denied: isDenied(error) } });
    }
  });
  send({ type: 'done', id: request.id });
});
lines.on('close', () => {
  resolver.dispose();
  process.exit(0);
});
send({ type: 'ready', pid: process.pid });

// The name worker's loop: JSON lines in on stdin (NameRequest), one `named` line per handle out on
// stdout, `done` after each request, or `retire` when hung queries hold its threads. The shipped entry
// (name-worker.ts) runs it with a plain NameResolver; the Wine tests run it with a resolver that hangs
// a pool thread on purpose (the pipe hang).
import { createInterface } from 'node:readline';
import { PlatformError } from '../../core/errors.js';
import { parseJsonOrUndefined } from '../../core/json-text.js';
import { isDenied, type NameResolver } from './name-resolver.js';
import type { RemoteHandleValue } from './win-types.js';
import { NameRequestSchema, type WorkerMessage } from '../../contract/name-worker.js';

function send(message: WorkerMessage): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

export function serveNameRequests(resolver: NameResolver): void {
  const lines = createInterface({ input: process.stdin });
  // One request at a time, in order: each handle's calls are awaited (they run on pool threads).
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(() => serve(resolver, line));
  });
  lines.on('close', () => {
    void queue.then(() => {
      resolver.dispose();
      process.exit(0);
    });
  });
  send({ type: 'ready', pid: process.pid });
}

async function serve(resolver: NameResolver, line: string): Promise<void> {
  const parsed = NameRequestSchema.safeParse(parseJsonOrUndefined(line));
  if (!parsed.success) {
    send({ type: 'fatal', message: `bad request: ${parsed.error.message.slice(0, 200)}` });
    return;
  }
  const request = parsed.data;
  resolver.prune(new Map(request.live.map((p) => [p.pid, BigInt(p.createTime)])));
  for (const [index, item] of request.items.entries()) {
    if (resolver.exhausted) {
      // Hung calls hold the threads: the app asks the rest of a fresh worker. This one leaves once
      // the line is out (its hung threads cannot be ended any other way).
      process.stdout.write(`${JSON.stringify({ type: 'retire', id: request.id, next: index } satisfies WorkerMessage)}\n`, () => process.exit(0));
      await new Promise(() => {}); // nothing more from this worker
    }
    try {
      const answer = await resolver.resolve(item.pid, BigInt(item.handle) as RemoteHandleValue);
      send({ type: 'named', id: request.id, index, ...answer });
    } catch (error) {
      const failure = error instanceof PlatformError ? { api: error.api, code: error.code } : { api: 'name', code: String(error) };
      send({ type: 'named', id: request.id, index, name: null, directory: false, deletePending: false, error: { ...failure, denied: isDenied(error) } });
    }
  }
  send({ type: 'done', id: request.id });
}

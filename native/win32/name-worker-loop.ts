// The name worker's loop: JSON lines in on stdin (NameRequest), one `named` line per handle out on
// stdout, `done` after each request. The shipped entry (name-worker.ts) runs it with a plain
// NameResolver; the Wine tests run it with a resolver that hangs on purpose (the pipe hang).
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
  lines.on('line', (line) => {
    const parsed = NameRequestSchema.safeParse(parseJsonOrUndefined(line));
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
}

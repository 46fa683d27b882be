// The name worker's loop: JSON lines in on stdin (NameRequest), one `named` line per handle out on
// stdout, `done` after each request, or `retire` when hung queries hold its threads. The shipped entry
// (name-worker.ts) runs it with a plain NameResolver; the Wine tests run it with a resolver that hangs
// a pool thread on purpose (the pipe hang).
import { createInterface } from 'node:readline';
import { PlatformError } from '../../core/errors.js';
import { parseJsonOrUndefined } from '../../core/json-text.js';
import { isDenied, type NameResolver } from './name-resolver.js';
import type { RemoteHandleValue } from './win-types.js';
import { NameRequestSchema, type NameRequest, type Named, type WorkerMessage } from '../../contract/name-worker.js';

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

async function answerFor(resolver: NameResolver, id: number, index: number, pid: number, handle: string): Promise<Named> {
  try {
    return { type: 'named', id, index, ...(await resolver.resolve(pid, BigInt(handle) as RemoteHandleValue)) };
  } catch (error) {
    const failure = error instanceof PlatformError ? { api: error.api, code: error.code } : { api: 'name', code: String(error) };
    return { type: 'named', id, index, name: null, directory: false, deletePending: false, error: { ...failure, denied: isDenied(error) } };
  }
}

async function serve(resolver: NameResolver, line: string): Promise<void> {
  const parsed = NameRequestSchema.safeParse(parseJsonOrUndefined(line));
  if (!parsed.success) {
    send({ type: 'fatal', message: `bad request: ${parsed.error.message.slice(0, 200)}` });
    return;
  }
  const request = parsed.data;
  resolver.beginBatch(new Map(request.live.map((p) => [p.pid, BigInt(p.createTime)])));
  try {
    await answerAll(resolver, request);
  } finally {
    resolver.releaseProcesses();
  }
}

async function answerAll(resolver: NameResolver, request: NameRequest): Promise<void> {
  // Several queries in flight (each on its own pool thread), answered in order: a hung one costs
  // its deadline once, not once per handle behind it, and a round trip to the pool is not paid
  // handle after handle.
  const answers = new Map<number, Promise<Named>>();
  let started = 0;
  for (let index = 0; index < request.items.length; index++) {
    while (started < request.items.length && started - index < resolver.window) {
      const item = request.items[started]!;
      answers.set(started, answerFor(resolver, request.id, started, item.pid, item.handle));
      started++;
    }
    const answer = await answers.get(index)!;
    answers.delete(index);
    send(answer);
    if (resolver.exhausted && index + 1 < request.items.length) {
      // Hung calls hold the threads: the app asks the rest of a fresh worker. This one leaves once
      // the line is out (its hung threads cannot be ended any other way); what is in flight is dropped.
      process.stdout.write(`${JSON.stringify({ type: 'retire', id: request.id, next: index + 1 } satisfies WorkerMessage)}\n`, () => process.exit(0));
      await new Promise(() => {}); // nothing more from this worker
    }
  }
  send({ type: 'done', id: request.id });
}

// The worker side of the scanner pipe: says hello with its token, then answers HolderSource calls
// one at a time (a source's scan pool serves one scan at a time). Returns when the pipe closes: the
// host closed it or died, and the worker must not outlive it.
import type { Socket } from 'node:net';
import { BadInputError, messageOf } from '../../core/errors.js';
import type { HandleCloser } from '../../core/close-policy.js';
import type { HolderSource } from '../../core/platform.js';
import { MAX_WORKER_LINE_BYTES, type WorkerReply, type WorkerRequest, WorkerRequestSchema } from '../../contract/scan-worker.js';
import { SerialQueue } from '../../core/serial-queue.js';
import { readJsonLines, writeJsonLine } from './json-lines.js';

export interface ServeOptions {
  token: string;
  /** Whether this worker runs with administrator (root) rights: the host shows it. */
  elevated: boolean;
  /** Closes a handle with this worker's rights; absent: the request is refused. */
  closeHandle?: HandleCloser;
}

/** Serves `source` on `socket` until it closes; resolves with why it closed. */
export function serveHolderSource(socket: Socket, source: HolderSource, options: ServeOptions): Promise<string> {
  const queue = new SerialQueue();
  const send = (reply: WorkerReply) => writeJsonLine(socket, reply);
  send({ type: 'hello', token: options.token, pid: process.pid, platform: source.platform, elevated: options.elevated });
  return new Promise((resolve) => {
    readJsonLines(
      socket,
      MAX_WORKER_LINE_BYTES,
      (value) => {
        const parsed = WorkerRequestSchema.safeParse(value);
        // A malformed request is a broken or hostile host: stop serving it.
        if (!parsed.success) return socket.destroy();
        const request = parsed.data;
        void queue.run(async () => {
          try {
            send({ type: 'result', id: request.id, value: await answer(source, request, options) });
          } catch (error) {
            send({
              type: 'error',
              id: request.id,
              error: { message: messageOf(error), badInput: error instanceof BadInputError },
            });
          }
        });
      },
      resolve,
    );
  });
}

async function answer(source: HolderSource, request: WorkerRequest, options: ServeOptions): Promise<unknown> {
  switch (request.type) {
    case 'resolveWatchDir':
      return source.resolveWatchDir(request.input);
    case 'scan':
      return source.scan(request.request);
    case 'processInfo':
      return source.processInfo(request.pid);
    case 'processExtras':
      // A backend without it answers as the host would without it: no extras.
      return source.processExtras?.(request.pid, request.handles) ?? Promise.resolve(null);
    case 'closeHandle':
      if (!options.closeHandle) throw new BadInputError('this scanner worker closes no handles');
      await options.closeHandle({ ...request.target, ownPids: [...request.target.ownPids, process.pid] }, request.path);
      return null;
  }
}

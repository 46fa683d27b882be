// The thread side of ThreadedHolderSource: opens the platform's holder source in this worker thread
// and answers the calls the owning thread posts, one message per call, in the order they come.
import { parentPort, workerData } from 'node:worker_threads';
import { BadInputError } from '../../core/errors.js';
import type { HolderSource } from '../../core/platform.js';
import { adoptHostIdentityClock, openHolderSource } from '../index.js';
import { KoffiLoadGate } from '../koffi-load-gate.js';
import { loadKoffi } from '../koffi-loader.js';
import type { ThreadCall, ThreadReply, ThreadStart } from './thread-messages.js';

const port = parentPort!;
const start = workerData as ThreadStart;
// koffi loads here while the thread boots, before the source opens: a first scan would load it at a
// moment the owner cannot know of. null: the owner is ending this thread already, and it opens nothing.
if (KoffiLoadGate.of(start.koffiGate).load(loadKoffi) === null) port.close();
else await serve();

async function serve(): Promise<void> {
  await adoptHostIdentityClock(start.hostClockEnv, start.platform);
  const source: HolderSource = await openHolderSource(
    { walkThread: start.walkThread, ...(start.systemRecheck ? { systemRecheck: start.systemRecheck } : {}) },
    start.platform,
  );
  let queue = Promise.resolve();
  port.on('message', (call: ThreadCall | { method: 'dispose' }) => {
    if (call.method === 'dispose') {
      queue = queue.then(async () => {
        await source.dispose();
        port.close();
      });
      return;
    }
    queue = queue.then(async () => port.postMessage(await answer(source, call)));
  });
  port.postMessage({ ready: true, platform: source.platform, extras: typeof source.processExtras === 'function' } satisfies ThreadReply);
}

async function answer(source: HolderSource, call: ThreadCall): Promise<ThreadReply> {
  try {
    const value =
      call.method === 'resolveWatchDir'
        ? await source.resolveWatchDir(call.input)
        : call.method === 'scan'
          ? await source.scan(call.request)
          : call.method === 'processInfo'
            ? await source.processInfo(call.pid)
            : ((await source.processExtras?.(call.pid, call.handles)) ?? null);
    return { id: call.id, value };
  } catch (error) {
    return { id: call.id, error: { message: (error as Error).message, badInput: error instanceof BadInputError } };
  }
}

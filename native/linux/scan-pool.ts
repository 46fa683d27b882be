// Splits a walk across threads: the calling thread takes one share, persistent worker threads the
// others. Two cores are there to use; a one-shot scan uses one thread, since starting a worker
// costs more than it saves there.
import { Worker } from 'node:worker_threads';
import { walkPids, type MatchDir, type WalkResult } from './fd-walk.js';

export class ScanPool {
  private workers: Worker[] = [];

  constructor(private readonly threads: number) {}

  async walk(pids: readonly number[], dirs: readonly MatchDir[]): Promise<WalkResult> {
    if (this.threads <= 1 || pids.length < 2 * this.threads) return walkPids(pids, dirs);
    const shares = interleave(pids, this.threads);
    const remote = shares.slice(1).map((share, i) => this.walkOnWorker(i, share, dirs));
    const local = walkPids(shares[0]!, dirs);
    return merge([local, ...(await Promise.all(remote))]);
  }

  async dispose(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private walkOnWorker(index: number, pids: number[], dirs: readonly MatchDir[]): Promise<WalkResult> {
    const worker = (this.workers[index] ??= new Worker(new URL('./scan-worker.js', import.meta.url)));
    return new Promise<WalkResult>((resolve, reject) => {
      const onMessage = (message: { ok: true; result: WalkResult } | { ok: false; error: string }) => {
        worker.off('error', onError);
        worker.unref(); // an idle worker never keeps the process alive
        if (message.ok) resolve(message.result);
        else reject(new Error(`scan worker: ${message.error}`));
      };
      const onError = (error: Error) => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.ref();
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.postMessage({ pids, dirs });
    });
  }
}

/** Deals pids round-robin so each share gets a mix of big and small processes. */
function interleave(pids: readonly number[], n: number): number[][] {
  const shares: number[][] = Array.from({ length: n }, () => []);
  pids.forEach((pid, i) => shares[i % n]!.push(pid));
  return shares;
}

function merge(parts: WalkResult[]): WalkResult {
  return {
    holdings: parts.flatMap((p) => p.holdings),
    denied: parts.flatMap((p) => p.denied),
    processCount: parts.reduce((n, p) => n + p.processCount, 0),
    handleCount: parts.reduce((n, p) => n + p.handleCount, 0),
  };
}

// Splits a walk across threads: the calling thread takes one share, persistent worker threads the
// others, and whoever finishes first takes over what is left (pid-shares.ts). Two cores are there
// to use; a one-shot scan uses one thread, since starting a worker costs more than it saves there
// (measured: a cold 2-thread scan waits for the worker to boot, ~2x slower on a busy machine).
import { Worker } from 'node:worker_threads';
import { SerialQueue } from '../../core/serial-queue.js';
import { FdKindCache } from './fd-kind-cache.js';
import { walkPids, type MatchDir, type WalkResult } from './fd-walk.js';
import { PidShares, sharePids } from './pid-shares.js';
import { readBootTimeMs } from './proc-stat.js';
import { unpackWalk, type PackedWalk } from './walk-codec.js';

export interface WorkerRequest {
  /** sharePids() of the walk; the worker's own share is `share`. */
  shares: SharedArrayBuffer;
  share: number;
  dirs: MatchDir[];
  full: boolean;
  /** The main thread's boot time, so start times (identities) agree across threads. */
  bootTimeMs: number;
}

export class ScanPool {
  private workers: Worker[] = [];
  /** The calling thread's share of the kind cache; each worker keeps its own. */
  private readonly kinds = new FdKindCache();

  constructor(private readonly threads: number) {}

  private readonly walks = new SerialQueue();

  /**
   * `full`: `pids` is the whole system (not a focus poll of a few processes). Walks never overlap:
   * the workers answer by message, and two walks in flight would take each other's answers.
   */
  walk(pids: readonly number[], dirs: readonly MatchDir[], full = false): Promise<WalkResult> {
    return this.walks.run(() => this.walkNow(pids, dirs, full));
  }

  private async walkNow(pids: readonly number[], dirs: readonly MatchDir[], full: boolean): Promise<WalkResult> {
    if (this.threads <= 1 || pids.length < 2 * this.threads) {
      // Too few to split: the workers' caches are then not pruned either; the next split walk does it.
      return walkPids(pids, dirs, { kinds: this.kinds, ...(full && this.threads <= 1 ? { cover: pids } : {}) });
    }
    const buffer = sharePids(shareByPid(pids, this.threads));
    const remote = Array.from({ length: this.threads - 1 }, (_, i) =>
      this.walkOnWorker(i, { shares: buffer, share: i + 1, dirs: [...dirs], full, bootTimeMs: readBootTimeMs() }),
    );
    const shares = new PidShares(buffer);
    const local = walkPids(shares.claimAll(0), dirs, { kinds: this.kinds, ...(full ? { cover: shares.share(0) } : {}) });
    return merge([local, ...(await Promise.all(remote))]);
  }

  async dispose(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    // Ref'd while terminating: an unref'd worker's exit does not keep the loop alive, and a caller
    // awaiting this dispose (then setting process.exitCode) would see Node exit underneath it.
    await Promise.all(
      workers.map((w) => {
        w.ref();
        return w.terminate();
      }),
    );
  }

  private walkOnWorker(index: number, request: WorkerRequest): Promise<WalkResult> {
    const worker = (this.workers[index] ??= new Worker(new URL('./scan-worker.js', import.meta.url)));
    return new Promise<WalkResult>((resolve, reject) => {
      const onMessage = (message: { ok: true; packed: PackedWalk } | { ok: false; error: string }) => {
        worker.off('error', onError);
        worker.unref(); // an idle worker never keeps the process alive
        if (message.ok) resolve(unpackWalk(message.packed, request.dirs));
        else reject(new Error(`scan worker: ${message.error}`));
      };
      const onError = (error: Error) => {
        worker.off('message', onMessage);
        reject(error);
      };
      worker.ref();
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.postMessage(request);
    });
  }
}

/**
 * Deals pids by `pid % n`: a mix of big and small processes per share, and a process stays on the
 * same thread from poll to poll, where that thread's kind cache knows its fds.
 */
function shareByPid(pids: readonly number[], n: number): number[][] {
  const shares: number[][] = Array.from({ length: n }, () => []);
  for (const pid of pids) shares[pid % n]!.push(pid);
  return shares;
}

function merge(parts: WalkResult[]): WalkResult {
  const [first, ...rest] = parts;
  const merged = first!;
  for (const part of rest) {
    for (const holding of part.holdings) merged.holdings.push(holding);
    merged.infos.push(...part.infos);
    merged.denied.push(...part.denied);
    merged.processCount += part.processCount;
    merged.handleCount += part.handleCount;
  }
  return merged;
}

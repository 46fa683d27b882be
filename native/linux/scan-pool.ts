// Splits a walk across threads: the calling thread takes one share, persistent worker threads the
// others, and whoever finishes first takes over what is left (pid-shares.ts). A one-shot scan uses
// one thread, since starting a worker costs more than it saves there (a worker's boot, 60-120 ms, is
// longer than a whole one-shot walk). A poller keeps two even on a 2-CPU machine, where one thread
// walks faster (two threads of one process walking /proc slow each other down by half: 39 vs 33 ms
// per poll at 2,000 held fds, `npm run bench`): on one thread the whole walk blocks the caller's event
// loop, and a run's process-tree refresh and output wait behind it (tried for one session: a full
// suite's run then lost a detached bats writer's chain to bats once, its parent gone before a refresh).
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

export interface ScanPoolOptions {
  /** The worker's script; scan-worker.js. (Tests give one that dies, to see it replaced.) */
  workerUrl?: URL;
}

const WORKER_URL = new URL('./scan-worker.js', import.meta.url);

export class ScanPool {
  private workers: (Worker | undefined)[] = [];
  /** Per worker: settles once its last request is answered (or failed). */
  private readonly answering: (Promise<void> | undefined)[] = [];
  /** Workers whose thread runs JavaScript (booted). */
  private readonly online = new WeakSet<Worker>();
  private disposed = false;
  /** The calling thread's share of the kind cache; each worker keeps its own. */
  private readonly kinds = new FdKindCache();

  constructor(
    private readonly threads: number,
    private readonly options: ScanPoolOptions = {},
  ) {}

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
    const joined = shares.close();
    return merge([local, ...(await answersOfJoined(remote, joined))]);
  }

  /** Starts the worker threads now and resolves once each runs JavaScript (its thread and loop exist). */
  async whenOnline(): Promise<void> {
    const starting: Promise<void>[] = [];
    for (let i = 0; i < this.threads - 1; i++) {
      const worker = (this.workers[i] ??= this.startWorker(i));
      if (!this.online.has(worker)) starting.push(new Promise((resolve) => worker.once('online', () => resolve())));
    }
    await Promise.all(starting);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const workers = this.workers.filter((w) => w !== undefined);
    this.workers = [];
    const terminating: Promise<number>[] = [];
    for (const w of workers) {
      // A worker still booting takes its boot (60-120 ms) to terminate: the whole cost of a short
      // `holdwatch run`'s exit. It is let go unref'd, ended when it comes up or when the process exits.
      if (!this.online.has(w)) {
        w.unref();
        void w.terminate();
        continue;
      }
      // Ref'd while terminating: an unref'd worker's exit does not keep the loop alive, and a caller
      // awaiting this dispose (then setting process.exitCode) would see Node exit underneath it.
      w.ref();
      terminating.push(w.terminate());
    }
    await Promise.all(terminating);
  }

  /**
   * The worker's part of a walk: its WalkResult, or null when it came too late to join. A worker
   * still answering the walk before (booting through a walk that was done without it) is waited
   * for first, so each answer is read by the listener of its own request.
   */
  private walkOnWorker(index: number, request: WorkerRequest): Promise<WalkResult | null> {
    const answer = (this.answering[index] ?? Promise.resolve()).then(() => this.askWorker(index, request));
    this.answering[index] = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  }

  private askWorker(index: number, request: WorkerRequest): Promise<WalkResult | null> {
    // A request queued behind a booting worker that dispose then let go: no new worker for it.
    if (this.disposed) return Promise.resolve(null);
    const worker = (this.workers[index] ??= this.startWorker(index));
    return new Promise<WalkResult | null>((resolve, reject) => {
      const settle = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref(); // an idle worker never keeps the process alive
      };
      const onMessage = (message: { ok: true; packed: PackedWalk | null } | { ok: false; error: string }) => {
        settle();
        if (!message.ok) reject(new Error(`scan worker: ${message.error}`));
        else resolve(message.packed ? unpackWalk(message.packed, request.dirs) : null);
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      // A worker that ends without an 'error' (terminated, a fatal error in the thread) would leave
      // this walk, and every walk queued behind it, waiting forever: this scan fails, the next one
      // gets a new worker.
      const onExit = (code: number) => {
        settle();
        reject(new Error(`a scan worker thread ended (exit code ${code}) during a scan; the next scan starts a new one`));
      };
      worker.ref();
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(request);
    });
  }

  private startWorker(index: number): Worker {
    const worker = new Worker(this.options.workerUrl ?? WORKER_URL);
    worker.once('online', () => this.online.add(worker));
    // Gone, busy or idle: its slot is emptied, so the next walk starts a replacement.
    worker.once('exit', () => {
      if (this.workers[index] === worker) this.workers[index] = undefined;
    });
    return worker;
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

/**
 * The answers of the `joined` workers that took part; the rest answer null later, unread here. A
 * failure while the walk waits for them fails it; once none joined, a failure is the next walk's
 * (the worker that died is replaced then).
 */
export function answersOfJoined(remote: readonly Promise<WalkResult | null>[], joined: number): Promise<WalkResult[]> {
  if (joined === 0) {
    for (const answer of remote) answer.catch(() => undefined);
    return Promise.resolve([]);
  }
  return new Promise((resolve, reject) => {
    const parts: WalkResult[] = [];
    for (const answer of remote) {
      answer.then((part) => {
        if (part === null || parts.length === joined) return;
        parts.push(part);
        if (parts.length === joined) resolve(parts);
      }, reject);
    }
  });
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

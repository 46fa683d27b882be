// Where a walk runs. A one-shot scan walks on the calling thread: a worker's boot is longer than the
// whole walk. A poller walks on one worker thread of its own, so the caller's event
// loop (a run's process-tree refresh, its output, the app) never waits behind a walk, and that thread
// remembers each process's fd rows between walks (fd-row-memo.ts): a process whose links are byte for
// byte what they were crosses back as a reference to rows the caller already has (walk-codec.ts).
// Until the worker is up, and when it ends mid-walk, the caller walks (with Node's fs: koffi is the
// worker's to load): a walk is always whole.
// One thread, not several sharing the pids: on 2-CPU machines two threads of one process walking
// /proc slow each other down, and one walker keeps the two sides' memory of each process in step by construction.
import type { Worker } from 'node:worker_threads';
import { SerialQueue } from '../../core/serial-queue.js';
import { unpackedUrl } from '../../core/asar-unpacked.js';
import { FdKindCache } from './fd-kind-cache.js';
import { FdRowMemo } from './fd-row-memo.js';
import { KoffiLoadGate } from '../koffi-load-gate.js';
import { QuietProcesses } from './quiet-processes.js';
import { MapsMemo } from './maps-memo.js';
import { walkPids, type MatchDir, type WalkResult } from './fd-walk.js';
import { nodeProcReader } from './proc-reader.js';
import { readBootTimeMs } from './proc-stat.js';
import { ReceivedFdRows, unpackWalk, WalkThreadDisagreement, type PackedWalk } from './walk-codec.js';

export interface WorkerRequest {
  /** Names this walk: the rows it sends are remembered under it on both sides. */
  walkId: number;
  pids: readonly number[];
  dirs: MatchDir[];
  /** `pids` is the whole system (not a focus poll of a few processes): the thread forgets the others. */
  full: boolean;
  /** Skip quiet processes whose fd count, cwd and root are unchanged (quiet-processes.ts). */
  idleCheck: boolean;
  /** The main thread's boot time, so start times (identities) agree across threads. */
  bootTimeMs: number;
}

/** What a scan worker starts with. */
export interface ScanWorkerData {
  /** KoffiLoadGate.shared: the worker loads koffi only through it. */
  koffiGate: SharedArrayBuffer;
}

export type WorkerAnswer = { ok: true; packed: PackedWalk } | { ok: false; error: string };

/** `caller`: every walk on the calling thread. `worker`: on a walk thread, once it is up. */
export type WalkThread = 'caller' | 'worker';

export interface ScanPoolOptions {
  /** The worker's script; scan-worker.js. (Tests give one that dies, to see it replaced.) */
  workerUrl?: URL;
  /**
   * Whether a walk remembers each process for the next (false: a one-shot scan's only walk). What it
   * remembers costs reads of its own: statm before the maps, the fd count, cwd and root of every
   * process that holds nothing.
   */
  remember?: boolean;
}

const WORKER_URL = unpackedUrl(new URL('./scan-worker.js', import.meta.url));
// A walk thread booting longer than this (60-120 ms is usual) is not waited for: the caller walks.
const BOOT_WAIT_MS = 10_000;

export class ScanPool {
  private worker: Worker | undefined;
  /** Workers whose thread runs JavaScript (booted). */
  private readonly online = new WeakSet<Worker>();
  /** Each worker's koffi load, closed before the worker is ended. */
  private readonly koffiGates = new WeakMap<Worker, KoffiLoadGate>();
  private readonly exited = new WeakSet<Worker>();
  private disposed = false;
  /** A worker that could not start (its script did not load): the caller walks from then on. */
  private workerFailed = false;
  private readonly walks = new SerialQueue();
  private walkIds = 0;
  // The calling thread's own memory, for the walks it makes itself.
  private readonly kinds = new FdKindCache();
  private readonly memo = new FdRowMemo();
  private readonly quiet = new QuietProcesses();
  private readonly maps = new MapsMemo();
  /** The worker's rows as received, for its answers that name them. */
  private readonly received = new ReceivedFdRows();

  constructor(
    private readonly walkThread: WalkThread,
    private readonly options: ScanPoolOptions = {},
  ) {}

  /**
   * `full`: `pids` is the whole system (not a focus poll of a few processes); `idleCheck`: see
   * quiet-processes.ts. Walks never overlap: each answer is the one the walk thread gave to that walk's request.
   */
  walk(pids: readonly number[], dirs: readonly MatchDir[], full = false, idleCheck = false): Promise<WalkResult> {
    return this.walks.run(() => this.walkNow(pids, dirs, full, idleCheck));
  }

  private async walkNow(pids: readonly number[], dirs: readonly MatchDir[], full: boolean, idleCheck: boolean): Promise<WalkResult> {
    if (this.walkThread === 'worker' && !this.disposed) {
      // Until the thread is up (60-120 ms, seconds on a loaded machine), walks are made here: waiting
      // for it left a run blind for as long (polls queue behind one another), and a short test's holder
      // unseen (tried: tests/ui's one-second runs lost every holder under a full suite's load).
      if (!this.workerFailed) this.worker ??= this.startWorker();
      const worker = this.worker;
      if (worker && this.online.has(worker)) {
        const answer = await this.askWorker(worker, pids, dirs, full, idleCheck);
        if (answer) return answer;
      }
    }
    // Node's fs for a poller's own walks: loading koffi here would cost this thread what the worker spares it.
    const reader = this.walkThread === 'worker' ? nodeProcReader : undefined;
    if (this.options.remember === false) return walkPids(pids, dirs, reader ? { reader } : {});
    return walkPids(pids, dirs, {
      kinds: this.kinds,
      memo: this.memo,
      quiet: this.quiet,
      maps: this.maps,
      idleCheck,
      ...(reader ? { reader } : {}),
      ...(full ? { cover: pids } : {}),
    });
  }

  /** Starts the walk thread now (a poller's) and resolves once it runs JavaScript, ended, or `withinMs` passed. */
  async whenOnline(withinMs = BOOT_WAIT_MS): Promise<void> {
    if (this.walkThread !== 'worker' || this.disposed || this.workerFailed) return;
    const worker = (this.worker ??= this.startWorker());
    if (this.online.has(worker)) return;
    worker.ref(); // an unref'd booting thread would not keep this wait alive
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      worker.once('online', () => resolve());
      worker.once('exit', () => resolve());
      timer = setTimeout(resolve, withinMs);
    });
    clearTimeout(timer);
    worker.unref();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    // Ref'd while koffi finishes loading in it (ended then, it aborts the process) and while terminating:
    // an unref'd worker's exit does not keep the loop alive, and a caller awaiting this dispose (then
    // setting process.exitCode) would see Node exit underneath it.
    worker.ref();
    await this.koffiLoaded(worker);
    // A worker still booting takes its boot (60-120 ms) to terminate: the whole cost of a short
    // `holdwatch run`'s exit. It is let go unref'd (it will not load koffi now), ended when it comes
    // up or when the process exits.
    if (!this.online.has(worker)) {
      worker.unref();
      void worker.terminate();
      return;
    }
    await worker.terminate();
  }

  /**
   * The worker's walk; null when it ended during the walk or named rows this side does not have (it
   * is then replaced, and the caller walks). A walk that failed in the worker fails here, as it would
   * have on this thread.
   */
  private askWorker(worker: Worker, pids: readonly number[], dirs: readonly MatchDir[], full: boolean, idleCheck: boolean): Promise<WalkResult | null> {
    const request: WorkerRequest = { walkId: ++this.walkIds, pids, dirs: [...dirs], full, idleCheck, bootTimeMs: readBootTimeMs() };
    return new Promise<WalkResult | null>((resolve, reject) => {
      const settle = () => {
        worker.off('message', onMessage);
        worker.off('error', onEnded);
        worker.off('exit', onEnded);
        worker.unref(); // an idle worker never keeps the process alive
      };
      const onMessage = (answer: WorkerAnswer) => {
        settle();
        if (!answer.ok) {
          this.received.clear(); // the worker forgot too
          reject(new Error(`scan worker: ${answer.error}`));
          return;
        }
        try {
          const result = unpackWalk(answer.packed, request.dirs, this.received, request.walkId);
          if (full) this.received.retainOnly(result.groups.map((g) => g.pid));
          resolve(result);
        } catch (error) {
          if (!(error instanceof WalkThreadDisagreement)) return reject(error);
          this.replaceWorker(worker);
          resolve(null);
        }
      };
      // A worker that ends (terminated, a fatal error in the thread) would leave this walk, and every
      // walk queued behind it, waiting forever: the caller walks this one, the next starts a new worker.
      const onEnded = () => {
        settle();
        this.replaceWorker(worker);
        resolve(null);
      };
      worker.ref();
      worker.on('message', onMessage);
      worker.on('error', onEnded);
      worker.on('exit', onEnded);
      worker.postMessage(request);
    });
  }

  private replaceWorker(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    this.received.clear();
    void this.koffiLoaded(worker).then(() => worker.terminate());
  }

  /** Resolves once no koffi load runs in `worker` and none will start; or once it ended (mid-load, it cannot say so). */
  private koffiLoaded(worker: Worker): Promise<void> {
    const gate = this.koffiGates.get(worker);
    if (!gate || this.exited.has(worker)) return Promise.resolve();
    return Promise.race([gate.close(), new Promise<void>((resolve) => worker.once('exit', () => resolve()))]);
  }

  private startWorker(): Worker {
    const koffiGate = KoffiLoadGate.create();
    const workerData: ScanWorkerData = { koffiGate: koffiGate.shared };
    // Loaded here, not imported: a one-shot scan walks on its own thread and never pays for the module.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    const worker = new Worker(this.options.workerUrl ?? WORKER_URL, { workerData });
    this.koffiGates.set(worker, koffiGate);
    worker.once('online', () => this.online.add(worker));
    // Said by 'exit' too; without a listener an 'error' would be thrown on this thread.
    worker.on('error', () => undefined);
    // Gone, busy or idle: its slot is emptied, so the next walk starts a replacement, unless it never came up.
    worker.once('exit', () => {
      this.exited.add(worker);
      if (!this.online.has(worker)) this.workerFailed = true;
      if (this.worker === worker) {
        this.worker = undefined;
        this.received.clear();
      }
    });
    // An idle worker never keeps the process alive; a walk refs it while it waits for the answer.
    worker.unref();
    return worker;
  }
}

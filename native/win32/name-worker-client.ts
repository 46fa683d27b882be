// App side of the name worker: sends batches and reads the answers. The worker gives each query its
// own deadline (a hung one keeps a pool thread, bounded-call.ts) and says `retire` when hung queries
// hold its threads: the app then goes on with a fresh worker. The app's own deadline per answer is
// the backstop for a worker that stops answering at all: that one is killed, the handle it was on
// marked unnamed. The app itself never blocks on a name query.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WorkerMessageSchema, type NameItem, type Named, type WorkerMessage } from '../../contract/name-worker.js';
import { unpackedPath } from '../../core/asar-unpacked.js';
import { DEFAULT_QUERY_MS, NAME_QUERY_THREADS, QUERY_MS_VARIABLE } from './bounded-call.js';

export interface Deadlines {
  /** The app's wait for one answer: past it the worker is taken for hung and killed. */
  perQueryMs: number;
  /** The worker's own deadline per query (it goes on without that handle's name); 200 ms by default. */
  workerQueryMs?: number;
  /** The whole batch, asking and waiting for answers: what one scan may spend naming (start-ups have their own). */
  totalMs: number;
  /** Starting a worker (node startup; slow under Wine). */
  startupMs: number;
}

export const DEFAULT_DEADLINES: Deadlines = { perQueryMs: 1000, totalMs: 8000, startupMs: 15000 };

/** The script a worker runs, and its arguments: the shipped name-worker.js unless a test gives its own. */
export interface NameWorkerEntry {
  script: string;
  args: readonly string[];
}

// In the packaged app, from app.asar.unpacked: Electron as Node does not load ESM from inside the archive.
const SHIPPED_ENTRY: NameWorkerEntry = { script: unpackedPath(fileURLToPath(new URL('./name-worker.js', import.meta.url))), args: [] };

/** `stalled`: this handle's own query hung (asking again would hang again); else it was never asked. */
export type NameOutcome = { kind: 'named'; answer: Named } | { kind: 'unnamed'; reason: string; stalled: boolean };

type Child = ChildProcessByStdio<Writable, Readable, Readable>;

class WorkerProcess {
  private readonly queue: WorkerMessage[] = [];
  private wake: (() => void) | undefined;
  exited = false;

  constructor(readonly child: Child) {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      const message = parseMessage(line);
      this.queue.push(message);
      this.wake?.();
    });
    child.on('exit', () => {
      this.exited = true;
      this.wake?.();
    });
    child.stderr.resume();
    child.stdin.on('error', () => {});
  }

  /** Next message, or null when `ms` passed or the worker died first. */
  async next(ms: number): Promise<WorkerMessage | null> {
    if (this.queue.length > 0) return this.queue.shift()!;
    if (this.exited) return null;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
    return this.queue.shift() ?? null;
  }

  kill(): void {
    if (!this.exited) this.child.kill();
    this.child.stdin.destroy();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
  }
}

function parseMessage(line: string): WorkerMessage {
  try {
    const parsed = WorkerMessageSchema.safeParse(JSON.parse(line));
    if (parsed.success) return parsed.data;
    return { type: 'fatal', message: `invalid worker message: ${parsed.error.issues[0]?.message ?? '?'}` };
  } catch {
    return { type: 'fatal', message: `worker printed a non-JSON line: ${line.slice(0, 80)}` };
  }
}

export class NameWorkerClient {
  private worker: WorkerProcess | undefined;
  private nextId = 1;
  private disposed = false;
  /** How many workers were started (the stall test and the bench read it). */
  starts = 0;

  constructor(
    private readonly deadlines: Deadlines = DEFAULT_DEADLINES,
    private readonly entry: NameWorkerEntry = SHIPPED_ENTRY,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get workerPid(): number | undefined {
    return this.worker?.child.pid;
  }

  async nameAll(items: readonly NameItem[], live: readonly { pid: number; createTime: string }[]): Promise<NameOutcome[]> {
    const outcomes = new Array<NameOutcome | undefined>(items.length).fill(undefined);
    let endAt = this.now() + this.deadlines.totalMs;
    let start = 0;
    while (start < items.length) {
      if (this.now() >= endAt) break;
      // A start-up is bounded by startupMs, not by the naming budget: under Wine or on a loaded machine
      // it can take longer than the whole budget, and a worker that then answers in 20 ms names everything.
      const startingAt = this.now();
      const worker = await this.ensureWorker();
      endAt += this.now() - startingAt;
      if (!worker) {
        for (let i = start; i < items.length; i++) outcomes[i] = { kind: 'unnamed', reason: 'name worker did not start', stalled: false };
        break;
      }
      const id = this.nextId++;
      worker.child.stdin.write(`${JSON.stringify({ type: 'names', id, items: items.slice(start), live })}\n`);
      const stopped = await this.collect(worker, id, start, items.length, outcomes, endAt);
      if (stopped === null) return finish(outcomes);
      this.killWorker();
      // The scan's budget ran out while a healthy worker was still answering: the rest were not asked.
      if ('unaskedAt' in stopped) break;
      if ('retiredAt' in stopped) {
        start = stopped.retiredAt; // not asked yet: a fresh worker asks them
        continue;
      }
      // The worker never answered the query at `stalledAt`: that handle is the hang. Go on without it.
      outcomes[stopped.stalledAt] = {
        kind: 'unnamed',
        reason: `name worker gave no answer in ${this.deadlines.perQueryMs} ms; worker restarted`,
        stalled: true,
      };
      start = stopped.stalledAt + 1;
    }
    return finish(outcomes, 'scan passed its naming deadline');
  }

  /**
   * Reads answers for batch `id`; returns null when done, the index the worker stopped answering at,
   * the index a retiring worker did not reach, or the index the scan's budget ran out at. Only a wait
   * of the full `perQueryMs` makes a handle stalled: one cut short by the budget says nothing of it.
   */
  private async collect(
    worker: WorkerProcess,
    id: number,
    offset: number,
    total: number,
    outcomes: (NameOutcome | undefined)[],
    endAt: number,
  ): Promise<{ stalledAt: number } | { retiredAt: number } | { unaskedAt: number } | null> {
    let pending = offset;
    const stoppedAt = () => (pending < total ? { stalledAt: pending } : null);
    for (;;) {
      const left = Math.max(0, endAt - this.now());
      const message = await worker.next(Math.min(this.deadlines.perQueryMs, left));
      if (message === null && !worker.exited && left < this.deadlines.perQueryMs) return pending < total ? { unaskedAt: pending } : null;
      if (message === null) return stoppedAt();
      if (message.type === 'done' && message.id === id) return null;
      if (message.type === 'fatal') return stoppedAt();
      if (message.type === 'retire' && message.id === id) return offset + message.next < total ? { retiredAt: offset + message.next } : null;
      if (message.type !== 'named' || message.id !== id) continue;
      const index = offset + message.index;
      if (index >= total) continue;
      outcomes[index] = message.stalled
        ? {
            kind: 'unnamed',
            reason: `name query passed the worker's ${this.workerQueryMs} ms deadline (a pipe that hangs, or a very slow disk)`,
            stalled: true,
          }
        : { kind: 'named', answer: message };
      pending = index + 1;
    }
  }

  private get workerQueryMs(): number {
    return this.deadlines.workerQueryMs ?? DEFAULT_QUERY_MS;
  }

  private async ensureWorker(): Promise<WorkerProcess | null> {
    if (this.worker && !this.worker.exited) return this.worker;
    this.killWorker();
    // A batch still being asked when the owner disposed of this client ends without a new worker.
    if (this.disposed) return null;
    let child: Child;
    try {
      child = this.spawnWorker();
    } catch {
      // spawn UNKNOWN (seen under Wine in a loaded run): no worker, so the handles stay unnamed, as when it does not start.
      return null;
    }
    this.starts++;
    const worker = new WorkerProcess(child);
    this.worker = worker;
    const ready = await worker.next(this.deadlines.startupMs);
    if (ready?.type !== 'ready') {
      this.killWorker();
      return null;
    }
    return worker;
  }

  private spawnWorker(): Child {
    return spawn(process.execPath, [this.entry.script, ...this.entry.args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      // Under Electron (the app, or its elevated scan worker) execPath is the app itself: started as is,
      // it would be a second instance, which fails the single-instance lock, quits (no name for any file)
      // and restores the open window. ELECTRON_RUN_AS_NODE makes it the plain Node the worker needs.
      // The pool is where the queries run, a hung one holding its thread (bounded-call.ts).
      env: {
        ...process.env,
        ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
        UV_THREADPOOL_SIZE: String(NAME_QUERY_THREADS),
        [QUERY_MS_VARIABLE]: String(this.workerQueryMs),
      },
      // The executable's folder, a real one (not inside app.asar), never the host's cwd: that may lie
      // inside a watched dir, and the worker would hold it.
      cwd: dirname(process.execPath),
    });
  }

  private killWorker(): void {
    this.worker?.kill();
    this.worker = undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.killWorker();
  }
}

function finish(outcomes: (NameOutcome | undefined)[], reason = 'name worker stopped answering'): NameOutcome[] {
  return outcomes.map((o) => o ?? { kind: 'unnamed', reason, stalled: false });
}

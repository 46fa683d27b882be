// The host side of the scanner worker: a HolderSource whose calls run in another process (on
// Windows, one started elevated), over a pipe this side creates. The first connection that says
// hello with the right token is the worker; the server then stops listening, so nothing else can
// join. When the pipe closes (the worker died or was ended), pending and later calls fail with
// ScannerWorkerGoneError and onDidClose fires: the owner falls back to an in-process source.
import { randomBytes } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ZodType } from 'zod';
import type { PlatformName, ProcessInfo } from '../../contract/holders.js';
import { BadInputError } from '../../core/errors.js';
import { parseJsonOrUndefined } from '../../core/json-text.js';
import { sameSecret } from '../../core/same-secret.js';
import type { HolderSource, ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import type { HandleTarget } from '../../core/close-policy.js';
import { MAX_EXTRAS_HANDLES, MAX_WORKER_LINE_BYTES, WORKER_RESULTS, WorkerReplySchema, type WorkerRequest } from '../../contract/scan-worker.js';
import { readJsonLines, writeJsonLine } from './json-lines.js';

/** A started worker, as its launcher owns it. */
export interface LaunchedWorker {
  /** The OS process id where the launcher knows it (the hello also carries it). */
  readonly pid: number | null;
  /** Resolves true once the process has exited, false when `ms` passed first. */
  waitForExit(ms: number): Promise<boolean>;
  /** Ends the process if it still runs. */
  terminate(): void;
  /** Releases what the launcher holds (the process handle on Windows). Idempotent. */
  close(): void;
}

/** Starts `<holdwatch> scan-worker --pipe <p> --token <t> --host-pid <n>`: elevated on Windows, a plain child elsewhere. */
export type WorkerLauncher = (args: readonly string[]) => Promise<LaunchedWorker>;

export interface RemoteSourceOptions {
  launch: WorkerLauncher;
  /** Where the unix socket goes off Windows (the data dir); Windows uses `\\.\pipe\`. */
  socketDir: string;
  platform?: NodeJS.Platform;
  /** From launch to the worker's authenticated hello (node start-up; slow under Wine). */
  startupMs?: number;
}

export class ScannerWorkerGoneError extends Error {
  override readonly name = 'ScannerWorkerGoneError';
}

/** The user declined the elevation prompt (Windows ERROR_CANCELLED from ShellExecuteExW "runas"). */
export class ElevationDeclinedError extends Error {
  override readonly name = 'ElevationDeclinedError';
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  schema: ZodType<unknown>;
}

const TOKEN_BYTES = 24;
/** A hello is ~200 characters; a connection that sends more without a newline is not a worker. */
const MAX_HELLO_CHARS = 4096;

/** `\\.\pipe\holdwatch-<random>` on Windows, `<dir>/hw-<random>.sock` elsewhere. */
export function workerPipePath(socketDir: string, platform: NodeJS.Platform = process.platform): string {
  const name = `holdwatch-${randomBytes(8).toString('hex')}`;
  if (platform === 'win32') return `\\\\.\\pipe\\${name}`;
  const path = join(socketDir, `${name}.sock`);
  // sun_path holds 108 bytes on Linux (104 on macOS).
  if (Buffer.byteLength(path) > 100)
    throw new BadInputError(`the socket path ${path} is too long for a unix socket; set HOLDWATCH_DATA_DIR to a shorter directory`);
  return path;
}

export class RemoteHolderSource implements HolderSource {
  private readonly pending = new Map<number, Pending>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private nextId = 1;
  private goneReason: string | null = null;
  private disposed = false;

  private constructor(
    readonly platform: PlatformName,
    /** The worker's own pid, from its hello. */
    readonly workerPid: number,
    /** The worker says it runs with administrator (root) rights. */
    readonly elevated: boolean,
    private readonly socket: Socket,
    private readonly worker: LaunchedWorker,
  ) {
    readJsonLines(
      socket,
      MAX_WORKER_LINE_BYTES,
      (value) => this.onReply(value),
      (reason) => this.onGone(reason),
    );
    socket.resume(); // acceptWorker paused it after the hello
  }

  /** Creates the pipe, launches the worker, and resolves once it authenticated; rejects (worker ended) otherwise. */
  static async start(options: RemoteSourceOptions): Promise<RemoteHolderSource> {
    const platform = options.platform ?? process.platform;
    const pipe = workerPipePath(options.socketDir, platform);
    const token = randomBytes(TOKEN_BYTES).toString('hex');
    const server = createServer();
    let worker: LaunchedWorker | null = null;
    try {
      await listen(server, pipe);
      // Owner-only on Linux; the token is the real check. (A Windows pipe gets the creator's default DACL.)
      if (platform !== 'win32') chmodSync(pipe, 0o600);
      const hello = acceptWorker(server, token, options.startupMs ?? 30_000);
      hello.catch(() => undefined);
      worker = await options.launch(['scan-worker', '--pipe', pipe, '--token', token, '--host-pid', String(process.pid)]);
      const launched = worker;
      const { socket, message } = await Promise.race([
        hello,
        launched.waitForExit(options.startupMs ?? 30_000).then((exited) => {
          throw new Error(exited ? 'the scanner worker exited before it connected' : 'the scanner worker did not connect in time');
        }),
      ]);
      const source = new RemoteHolderSource(message.platform, message.pid, message.elevated, socket, launched);
      worker = null; // the source owns it now
      return source;
    } finally {
      server.close();
      if (platform !== 'win32') rmSync(pipe, { force: true });
      if (worker) await endWorker(worker);
    }
  }

  /** Called once when the pipe closes for any reason but dispose(); returns the unsubscribe function. */
  onDidClose(listener: (reason: string) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  resolveWatchDir(input: string): Promise<WatchDir> {
    return this.call({ type: 'resolveWatchDir', input }) as Promise<WatchDir>;
  }

  scan(request: ScanRequest): Promise<ScanResult> {
    return this.call({ type: 'scan', request: { dirs: request.dirs, ...(request.pids ? { pids: request.pids } : {}) } }) as Promise<ScanResult>;
  }

  processInfo(pid: number): Promise<ProcessInfo | null> {
    return this.call({ type: 'processInfo', pid }) as Promise<ProcessInfo | null>;
  }

  /** Past MAX_EXTRAS_HANDLES the worker would refuse the line; those handles keep the scan's access instead. */
  processExtras(pid: number, handles: readonly string[]): Promise<ProcessExtras | null> {
    return this.call({ type: 'processExtras', pid, handles: handles.slice(0, MAX_EXTRAS_HANDLES) }) as Promise<ProcessExtras | null>;
  }

  /** Closes one handle with the worker's rights (elevated); rejects with the worker's reason when it will not. */
  async closeHandle(target: HandleTarget, path: string): Promise<void> {
    await this.call({ type: 'closeHandle', target: { ...target, dirs: [...target.dirs], ownPids: [...target.ownPids] }, path });
  }

  /** Closes the pipe (the worker exits on its own), waits briefly, then ends it. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.socket.end();
    this.onGone('the scanner worker was closed');
    await endWorker(this.worker);
  }

  private call(request: WorkerRequestBody): Promise<unknown> {
    if (this.goneReason !== null) return Promise.reject(new ScannerWorkerGoneError(this.goneReason));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, schema: WORKER_RESULTS[request.type] as ZodType<unknown> });
      writeJsonLine(this.socket, { ...request, id });
    });
  }

  private onReply(value: unknown): void {
    const parsed = WorkerReplySchema.safeParse(value);
    const reply = parsed.success ? parsed.data : null;
    const pending = reply && reply.type !== 'hello' ? this.pending.get(reply.id) : undefined;
    if (!reply || !pending) {
      // Not the protocol: whatever is on the other end is not a worker we can trust.
      this.socket.destroy();
      this.onGone('the scanner worker sent a malformed reply');
      return;
    }
    if (reply.type === 'hello') return;
    this.pending.delete(reply.id);
    if (reply.type === 'error') {
      pending.reject(reply.error.badInput ? new BadInputError(reply.error.message) : new Error(`scanner worker: ${reply.error.message}`));
      return;
    }
    const result = pending.schema.safeParse(reply.value);
    if (result.success) pending.resolve(result.data);
    else pending.reject(new Error(`scanner worker: malformed ${reply.id} result: ${result.error.issues[0]?.message ?? '?'}`));
  }

  private onGone(reason: string): void {
    if (this.goneReason !== null) return;
    this.goneReason = reason;
    for (const pending of this.pending.values()) pending.reject(new ScannerWorkerGoneError(reason));
    this.pending.clear();
    if (this.disposed) return;
    for (const listener of this.closeListeners) listener(reason);
  }
}

function listen(server: Server, pipe: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(pipe, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A request before its id is assigned. */
type WorkerRequestBody = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

type Hello = Extract<ReturnType<typeof WorkerReplySchema.parse>, { type: 'hello' }>;

/** The first connection whose hello carries `token`; any other connection is closed unanswered. */
function acceptWorker(server: Server, token: string, timeoutMs: number): Promise<{ socket: Socket; message: Hello }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the scanner worker did not connect in time')), timeoutMs);
    timer.unref();
    server.on('connection', (socket) => {
      let text = '';
      const onFirstLine = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const newline = text.indexOf('\n');
        if (newline < 0) {
          if (text.length > MAX_HELLO_CHARS) socket.destroy();
          return;
        }
        socket.off('data', onFirstLine);
        const parsed = WorkerReplySchema.safeParse(parseJsonOrUndefined(text.slice(0, newline)));
        const hello = parsed.success && parsed.data.type === 'hello' ? parsed.data : null;
        if (!hello || !sameSecret(hello.token, token)) return socket.destroy();
        clearTimeout(timer);
        server.close();
        socket.pause();
        if (newline + 1 < text.length) socket.unshift(Buffer.from(text.slice(newline + 1)));
        resolve({ socket, message: hello });
      };
      socket.on('data', onFirstLine);
      socket.on('error', () => socket.destroy());
    });
  });
}

/** The worker leaves on its own once the pipe is gone; give it a moment, then end it. Always releases the launcher's handle. */
async function endWorker(worker: LaunchedWorker): Promise<void> {
  try {
    if (!(await worker.waitForExit(3000))) {
      worker.terminate();
      await worker.waitForExit(3000);
    }
  } finally {
    worker.close();
  }
}

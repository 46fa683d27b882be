// The listening end of the test-boundary channel (contract/boundary.ts): a test process says a test
// ended, holdwatch scans the run's processes and journals what they hold, then answers, and only then
// does the test process go on. TCP on 127.0.0.1, the same on Windows and Linux; a random token, given
// to the command in HOLDWATCH_BOUNDARY, admits a connection. Each connection is served in order. Any
// local user can connect: until its hello shows the token a connection is on a short leash
// (connection-budget.ts), so a flood costs holdwatch no fds its scans need.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import {
  MAX_BOUNDARY_LINE_BYTES,
  toBoundaryExit,
  toBoundaryHello,
  toBoundaryTestEnd,
  toBoundaryWentOn,
  type BoundaryExit,
  type BoundaryTestEnd,
} from '../../contract/boundary.js';
import { readJsonLines, writeJsonLine } from '../../native/remote/json-lines.js';
import { ConnectionBudget, type ConnectionBudgetOptions } from '../connection-budget.js';
import { randomHex } from '../random-hex.js';
import { sameSecret } from '../../core/same-secret.js';

/**
 * A test process says hello as soon as it connects; each process of a run keeps one connection (a
 * pytest-xdist worker, a Go test binary stopped at its exit), so the run's own stay far below the total.
 */
export const BOUNDARY_LIMITS: ConnectionBudgetOptions = { maxTotal: 2048, maxUntrusted: 64, untrustedDeadlineMs: 10_000 };

/**
 * What a test's end (or a process stopped at its exit) asks of the run; resolves once the scan is
 * journaled. `pid`: the process that waits.
 */
export type OnTestEnd = (event: BoundaryTestEnd | BoundaryExit, pid: number) => Promise<void>;

/**
 * Process `pid` stopped waiting for the scan of `ended` at `atMs` (epoch ms) and went on: said at once,
 * not queued behind that scan, which may still run.
 */
export type OnWentOn = (ended: BoundaryTestEnd, pid: number, atMs: number) => void;

interface BoundaryHandlers {
  onTestEnd: OnTestEnd;
  onError: (error: unknown) => void;
  onHello: (pid: number) => void;
  onWentOn: OnWentOn;
}

export class BoundaryServer {
  private readonly sockets = new Set<Socket>();
  /** Each connection's handlers in flight, chained in the order its lines came. */
  private readonly handling = new Map<Socket, Promise<void>>();
  /** Called when a connection ends; settle() waits for its connections this way. */
  private onSocketGone: (() => void) | null = null;

  private constructor(
    private readonly server: Server,
    private readonly token: string,
    /** `<host>:<port>:<token>`, as HOLDWATCH_BOUNDARY carries it. */
    readonly address: string,
  ) {}

  /**
   * `onHello(pid)`: a test process proved it holds the token: the moment to read what it is, before
   * the test ends it sends are handled.
   */
  static async start(
    onTestEnd: OnTestEnd,
    onError: (error: unknown) => void,
    limits = BOUNDARY_LIMITS,
    onHello: (pid: number) => void = () => {},
    onWentOn: OnWentOn = () => {},
  ): Promise<BoundaryServer> {
    const handlers: BoundaryHandlers = { onTestEnd, onError, onHello, onWentOn };
    const token = randomHex(24);
    let self: BoundaryServer | null = null;
    const budget = new ConnectionBudget(limits);
    const server = createServer((socket) => {
      budget.admit(socket);
      if (!socket.destroyed) self?.serve(socket, budget, handlers);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref(); // a run's end does not wait for a test process that never said goodbye
    const { port } = server.address() as AddressInfo;
    self = new BoundaryServer(server, token, `127.0.0.1:${port}:${token}`);
    return self;
  }

  /**
   * Reads what the run's test processes already said, before close(): connections still waiting to be
   * accepted and lines not read yet, up to each connection's end (a process that exited has closed its
   * end: its lines are all there) or `withinMs` (one that outlives the command keeps its own open), then
   * waits for their handlers. A short test's process may exit, and the command with it, before holdwatch
   * read a word of what it sent.
   */
  async settle(withinMs: number): Promise<void> {
    // Past one poll phase of the loop, which accepts the queued connections: the first immediate may
    // run before it (when called from an I/O callback), the second runs after one.
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (this.sockets.size > 0) return;
        clearTimeout(timer);
        this.onSocketGone = null;
        resolve();
      };
      this.onSocketGone = check;
      timer = setTimeout(() => {
        this.onSocketGone = null;
        resolve();
      }, withinMs);
      check();
    });
    await Promise.all(this.handling.values());
  }

  /** Idempotent: stops listening and drops the connections (their test processes stop waiting at once). */
  close(): void {
    this.server.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private serve(socket: Socket, budget: ConnectionBudget, { onTestEnd, onError, onHello, onWentOn }: BoundaryHandlers): void {
    this.sockets.add(socket);
    socket.unref();
    let pid: number | null = null;
    let queue = Promise.resolve();
    /**
     * The last test end the process waited for: what its went-on names. Kept after the ack too: on a
     * busy loop the went-on may be read only after the scan it gave up on was answered.
     */
    let waitedFor: BoundaryTestEnd | undefined;
    const gone = () => {
      this.sockets.delete(socket);
      this.onSocketGone?.();
    };
    const drop = () => {
      gone();
      socket.destroy();
    };
    readJsonLines(
      socket,
      MAX_BOUNDARY_LINE_BYTES,
      (value) => {
        if (pid === null) {
          const hello = toBoundaryHello(value);
          if (!hello || !sameSecret(hello.token, this.token)) return drop();
          budget.trust(socket);
          pid = hello.pid;
          onHello(pid);
          return;
        }
        const wentOn = toBoundaryWentOn(value);
        if (wentOn) {
          if (waitedFor?.seq === wentOn.seq) onWentOn(waitedFor, pid, wentOn.atMs);
          return;
        }
        const event = toBoundaryTestEnd(value) ?? toBoundaryExit(value);
        if (!event) return drop();
        const from = pid;
        // A process that listed its own holdings goes on without an answer.
        const answered = !(event.type === 'test-end' && event.held);
        if (answered && event.type === 'test-end' && event.waits !== false) waitedFor = event;
        queue = queue
          .then(() => onTestEnd(event, from))
          .catch(onError) // the test process is answered even when the scan failed: it must go on
          .then(() => (answered ? writeJsonLine(socket, { type: 'ack', seq: event.seq }) : undefined));
        this.handling.set(socket, queue);
      },
      gone,
    );
  }
}

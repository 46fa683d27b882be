// The test-boundary channel. A runner integration inside the test process (the pytest plugin) says
// "this test has ended" and waits, bounded, until holdwatch has scanned the run's processes: then
// "still open when its test ended" is observed even for a 1 ms test. JSON lines over TCP on
// 127.0.0.1, the same on Windows and Linux. HOLDWATCH_BOUNDARY=<host>:<port>:<token> names the
// listener; the first line carries the token, so no other process can feed the run's timeline.
//   client -> holdwatch   {"type":"hello","token":"<hex>","pid":N}
//   client -> holdwatch   {"type":"test-end","seq":N,"name":"<test>","atMs":N}
//   (with "scope":"suite"|"file"|"session", `name` is a wider scope that ended: a class's, a module's;
//   with "held":[{"kind","path","fd","deleted"}], the process listed what it holds itself and goes on
//   without waiting: no ack comes)
//   holdwatch -> client   {"type":"ack","seq":N}
// A scan slower than the process waits (its wait is bounded) does not end the channel: the process
// says when it went on without the ack, and while any ack is still owed it does not wait at all:
//   client -> holdwatch   {"type":"went-on","seq":N,"atMs":N}   (the ack of test-end N never came in time)
//   client -> holdwatch   {"type":"test-end",...,"waits":false}  (scanned and acked, but nobody waits)
// A process that runs no runner integration may instead say it is stopped at its exit, its files all
// still open (holdwatch's `go test -exec` program, for the test binary it traces), and wait the same way:
//   client -> holdwatch   {"type":"exit","seq":N,"atMs":N}
// Validated by hand, zod-free: the messages are three fields each, and a run loads no zod to start.

import { SCOPE_KINDS } from './enums.js';

export const BOUNDARY_VARIABLE = 'HOLDWATCH_BOUNDARY';

/** A line longer than this is not one of ours: the connection is dropped. */
export const MAX_BOUNDARY_LINE_BYTES = 64 * 1024;

export interface BoundaryHello {
  type: 'hello';
  token: string;
  pid: number;
}

export interface BoundaryTestEnd {
  type: 'test-end';
  seq: number;
  name: string;
  /** The runner's end of the test, milliseconds since the Unix epoch. */
  atMs: number;
  /** Set when `name` is a wider scope that ended, its fixtures finalized, not a test. */
  scope?: ScopeKind;
  /**
   * What the process holds under the watched dirs, listed by itself (/proc/self): journaled as it is,
   * with no scan, and not answered (the process does not wait). Absent: scan, then ack.
   */
  held?: BoundaryHeld[];
  /** false: the process went on at once (it still owed an earlier ack): the scan comes when it can. */
  waits?: false;
}

/** The process stopped waiting for the ack of test-end `seq` at `atMs` (epoch ms) and went on. */
export interface BoundaryWentOn {
  type: 'went-on';
  seq: number;
  atMs: number;
}

/** One holding a test process listed of itself. */
export interface BoundaryHeld {
  kind: 'file' | 'dir' | 'mmap' | 'cwd';
  path: string;
  fd: number | null;
  deleted: boolean;
}

const HELD_KINDS: readonly BoundaryHeld['kind'][] = ['file', 'dir', 'mmap', 'cwd'];
/** As many as one line carries (MAX_BOUNDARY_LINE_BYTES); the probes list at most 256. */
const MAX_HELD = 1024;

function toHeld(value: unknown): BoundaryHeld | undefined {
  if (!isRecord(value) || !HELD_KINDS.includes(value.kind as BoundaryHeld['kind'])) return undefined;
  if (typeof value.path !== 'string' || !value.path.startsWith('/') || value.path.length > 4096 || typeof value.deleted !== 'boolean') return undefined;
  if (value.fd !== null && !isCount(value.fd)) return undefined;
  return { kind: value.kind as BoundaryHeld['kind'], path: value.path, fd: value.fd, deleted: value.deleted };
}

type ScopeKind = (typeof SCOPE_KINDS)[number];

/** The hello's process is stopped at its exit: whatever it holds now, it held when all its tests had ended. */
export interface BoundaryExit {
  type: 'exit';
  seq: number;
  /** When it stopped, milliseconds since the Unix epoch. */
  atMs: number;
}

export interface BoundaryAck {
  type: 'ack';
  seq: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

export function toBoundaryHello(value: unknown): BoundaryHello | undefined {
  if (!isRecord(value) || value.type !== 'hello' || typeof value.token !== 'string' || !isCount(value.pid)) return undefined;
  if (value.token.length < 16 || value.token.length > 256) return undefined;
  return { type: 'hello', token: value.token, pid: value.pid };
}

export function toBoundaryTestEnd(value: unknown): BoundaryTestEnd | undefined {
  if (!isRecord(value) || value.type !== 'test-end' || !isCount(value.seq) || typeof value.name !== 'string') return undefined;
  if (typeof value.atMs !== 'number' || !Number.isFinite(value.atMs) || value.name.length > 4096) return undefined;
  if (value.scope !== undefined && !SCOPE_KINDS.includes(value.scope as ScopeKind)) return undefined;
  let held: BoundaryHeld[] | undefined;
  if (value.held !== undefined) {
    if (!Array.isArray(value.held) || value.held.length > MAX_HELD) return undefined;
    held = value.held.map(toHeld).filter((h) => h !== undefined);
    if (held.length !== value.held.length) return undefined;
  }
  if (value.waits !== undefined && value.waits !== false) return undefined;
  return {
    type: 'test-end',
    seq: value.seq,
    name: value.name,
    atMs: value.atMs,
    ...(value.scope === undefined ? {} : { scope: value.scope as ScopeKind }),
    ...(held ? { held } : {}),
    ...(value.waits === false ? { waits: false as const } : {}),
  };
}

export function toBoundaryWentOn(value: unknown): BoundaryWentOn | undefined {
  if (!isRecord(value) || value.type !== 'went-on' || !isCount(value.seq)) return undefined;
  if (typeof value.atMs !== 'number' || !Number.isFinite(value.atMs)) return undefined;
  return { type: 'went-on', seq: value.seq, atMs: value.atMs };
}

export function toBoundaryExit(value: unknown): BoundaryExit | undefined {
  if (!isRecord(value) || value.type !== 'exit' || !isCount(value.seq)) return undefined;
  if (typeof value.atMs !== 'number' || !Number.isFinite(value.atMs)) return undefined;
  return { type: 'exit', seq: value.seq, atMs: value.atMs };
}

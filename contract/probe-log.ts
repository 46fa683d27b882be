// The probes' log lines, as the receiving side reads them. A probe runs inside the test process,
// which may write anything anywhere: every line is validated, bad ones are counted, none trusted.
// Wire format (version 1, shared by probes/python and probes/node), one JSON object per line:
//   process  {v, kind, runtime, pid, ppid, atMs, argv, cwd, thread?}  (node: `thread`, a worker thread's
//            start: each thread writes a log of its own, its ids from thread * THREAD_ID_SPAN)
//   open     {v, kind:'open'|'connect', pid, atMs, api, path, fd|null, id?, mode?, flags?, test?, frames}
//   close    {v, kind:'close', pid, atMs, id, fd|null}                  (node only: fds closed)
//   spawn    {v, kind:'spawn', pid, atMs, api, executable, argv, cwd, childPid|null, test?, frames}
//   test     {v, kind:'test', pid, atMs, event:'start'|'end', name, open?, unlinked?}  (node:test, in the
//            test's process; an end's `open` lists the ids of that test's opens still open when it ended,
//            `unlinked` those of them whose file had no name left then)
//   exit     {v, kind:'exit', pid, atMs, open, thread?}                (node: the ids still open at exit;
//            a worker thread's exit, `thread`, speaks for that thread's opens only)
//   delete   {v, kind:'delete', pid, atMs, api, path, held, cwd, children?, test?, frames}  (node: a call
//            deleting `path` while this process had `held` (open ids) at or under it open, or its cwd
//            there, or its live children held `children` ({pid, fd|null, path}; fd null: the cwd) there)
//   gc-close {v, kind:'gc-close', pid, atMs, resource:'file'|'sqlite', api, path, fd|null, openedAtMs, test?,
//            closedDuring?, frames}  (python, node: a file or sqlite connection the code never closed,
//            closed by its finalizer at atMs, or found closed at the next test boundary when the object
//            takes no finalizer hook (sqlite, Node's FileHandle); `test` the test it was opened in,
//            `closedDuring` the one running at the close, frames the open's)
// A frame is [file, line, column|null, function|null, user].
// Checked by hand, not with zod: reading the logs is the last step of every run, and zod's import
// alone would be most of it; contract/probe-log.test.ts holds this reader to the
// zod schemas it replaced, record for record.
import { GC_RESOURCES } from './enums.js';
import type { StackFrame } from './stacks.js';

export type GcResource = (typeof GC_RESOURCES)[number];
export type ProbeRuntime = 'python' | 'node' | 'strace';

/**
 * The span of one thread's record ids: a Node process's worker threads each load the preload and
 * write their own log under the process's pid, thread n's ids from n * THREAD_ID_SPAN on.
 */
export const THREAD_ID_SPAN = 2 ** 32;

/** The thread (0: the main one) whose log an id belongs to. */
export const threadOfId = (id: number): number => Math.floor(id / THREAD_ID_SPAN);

export interface ProcessRecord {
  v: 1;
  kind: 'process';
  /** `strace`: built from a syscall ledger (core/stacks/syscall-ledger.ts), never read from a log line. */
  runtime: ProbeRuntime;
  pid: number;
  ppid: number;
  atMs: number;
  argv: string[];
  cwd: string | null;
  /** A worker thread's start, not another process's: the process is the record without it. */
  thread?: number;
}

export interface OpenRecord {
  v: 1;
  kind: 'open' | 'connect';
  pid: number;
  atMs: number;
  api: string;
  path: string;
  fd: number | null;
  id?: number;
  /** The test in progress in the process at the open, where the probe tracks its runner's tests. */
  test?: string;
  /** Made outside any test: the wider scope running then (a suite's or file's hooks, import time). */
  scope?: ProbeScope;
  /** Found in the process's own descriptor list, not at a wrapped call (a native addon's open): no stack. */
  listed?: true;
  /** Not a descriptor: the process's working directory moved to `path` (process.chdir); fd is null. */
  cwd?: true;
  /** Not a descriptor: a memory map of `path` (mmap.mmap), which holds the file until unmapped; fd is null. */
  mmap?: true;
  /** Without `test`: the tests that ran side by side at the open (t.Parallel), one of which made it. */
  among?: string[];
  frames: StackFrame[];
}

/** A scope wider than one test, as the probe's tracker names it. */
export interface ProbeScope {
  kind: 'suite' | 'file' | 'session';
  name: string;
}

export interface CloseRecord {
  v: 1;
  kind: 'close';
  pid: number;
  atMs: number;
  id: number;
  fd: number | null;
}

export interface SpawnRecord {
  v: 1;
  kind: 'spawn';
  pid: number;
  atMs: number;
  api: string;
  executable: string | null;
  argv: string[];
  cwd: string | null;
  childPid: number | null;
  /** The test in progress in the process at the call, where the probe tracks its runner's tests. */
  test?: string;
  frames: StackFrame[];
}

export interface TestBoundaryRecord {
  v: 1;
  kind: 'test';
  pid: number;
  atMs: number;
  event: 'start' | 'end';
  name: string;
  /** Set on the end of a wider scope (`name` is the scope's): `open` lists that scope's opens still open. */
  scope?: ProbeScope['kind'];
  open?: number[];
  unlinked?: number[];
}

export interface ExitRecord {
  v: 1;
  kind: 'exit';
  pid: number;
  atMs: number;
  open: number[];
  /** A worker thread's exit: the end of that thread's opens' scope, not of the process. */
  thread?: number;
}

export interface DeleteRecord {
  v: 1;
  kind: 'delete';
  pid: number;
  atMs: number;
  api: string;
  path: string;
  held: number[];
  cwd: boolean;
  /** What the deleting process's live children held at or under `path` then, as /proc named it. */
  children?: ChildHold[];
  test?: string;
  frames: StackFrame[];
}

/** A child's holding a delete met: its fd, or its working directory (fd null). */
export interface ChildHold {
  pid: number;
  fd: number | null;
  path: string;
}

export interface GcCloseRecord {
  v: 1;
  kind: 'gc-close';
  pid: number;
  atMs: number;
  resource: GcResource;
  api: string;
  path: string;
  fd: number | null;
  openedAtMs: number;
  test?: string;
  closedDuring?: string;
  frames: StackFrame[];
}

export type ProbeRecord = ProcessRecord | OpenRecord | CloseRecord | SpawnRecord | TestBoundaryRecord | ExitRecord | DeleteRecord | GcCloseRecord;

/** Thrown inside toProbeRecord only: the line is not a record. */
class NotARecord extends Error {}
const reject = (): never => {
  throw new NotARecord();
};

const MAX_TEXT = 32_768;
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const int = (v: unknown, min: number): number => (isInt(v) && v >= min ? v : reject());
const pidOf = (v: unknown) => int(v, 1);
const atMsOf = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : reject());
const textOf = (v: unknown): string => (typeof v === 'string' && v.length <= MAX_TEXT ? v : reject());
const textOrNull = (v: unknown): string | null => (v === null ? null : textOf(v));
const listOf = <T>(v: unknown, max: number, item: (x: unknown) => T): T[] => (Array.isArray(v) && v.length <= max ? v.map(item) : reject());
const idsOf = (v: unknown) => listOf(v, 100_000, (x) => int(x, 1));
const texts = (v: unknown) => listOf(v, 4096, textOf);

const SCOPE_KINDS: readonly ProbeScope['kind'][] = ['suite', 'file', 'session'];
const scopeKindOf = (v: unknown): ProbeScope['kind'] => (SCOPE_KINDS.includes(v as ProbeScope['kind']) ? (v as ProbeScope['kind']) : reject());
function scopeOf(v: unknown): ProbeScope {
  if (typeof v !== 'object' || v === null) return reject();
  const { kind, name } = v as Record<string, unknown>;
  return { kind: scopeKindOf(kind), name: textOf(name) };
}

function frameOf(v: unknown): StackFrame {
  if (!Array.isArray(v) || v.length !== 5) return reject();
  const [file, line, column, fn, user] = v as unknown[];
  if (typeof user !== 'boolean') return reject();
  return { file: textOf(file), line: int(line, 0), column: column === null ? null : int(column, 0), function: textOrNull(fn), user };
}
const framesOf = (v: unknown) => listOf(v, 256, frameOf);

function childHoldOf(v: unknown): ChildHold {
  if (typeof v !== 'object' || v === null) return reject();
  const { pid, fd, path } = v as Record<string, unknown>;
  return { pid: pidOf(pid), fd: fd === null ? null : int(fd, 0), path: textOf(path) };
}
const childHoldsOf = (v: unknown) => listOf(v, 100_000, childHoldOf);

/** An optional field: absent stays absent; present, it must be what `check` accepts (null is not absent). */
function optional<K extends string, T>(key: K, v: unknown, check: (x: unknown) => T): { [P in K]?: T } {
  return (v === undefined ? {} : { [key]: check(v) }) as { [P in K]?: T };
}

function recordOf(o: Record<string, unknown>): ProbeRecord {
  if (o.v !== 1) return reject();
  const pid = pidOf(o.pid);
  const atMs = atMsOf(o.atMs);
  switch (o.kind) {
    case 'process': {
      const runtime = o.runtime === 'python' || o.runtime === 'node' ? o.runtime : reject();
      const thread = optional('thread', o.thread, (x) => int(x, 1));
      return { v: 1, kind: 'process', runtime, pid, ppid: int(o.ppid, 0), atMs, argv: texts(o.argv), cwd: textOrNull(o.cwd), ...thread };
    }
    case 'open':
    case 'connect':
      return openRecordOf(o, o.kind, pid, atMs);
    case 'close':
      return { v: 1, kind: 'close', pid, atMs, id: int(o.id, 1), fd: o.fd === null ? null : int(o.fd, 0) };
    case 'spawn':
      return {
        v: 1,
        kind: 'spawn',
        pid,
        atMs,
        api: textOf(o.api),
        executable: textOrNull(o.executable),
        argv: texts(o.argv),
        cwd: textOrNull(o.cwd),
        childPid: o.childPid === null ? null : pidOf(o.childPid),
        ...optional('test', o.test, textOf),
        frames: framesOf(o.frames),
      };
    case 'test': {
      const event = o.event === 'start' || o.event === 'end' ? o.event : reject();
      return {
        v: 1,
        kind: 'test',
        pid,
        atMs,
        event,
        name: textOf(o.name),
        ...optional('scope', o.scope, scopeKindOf),
        ...optional('open', o.open, idsOf),
        ...optional('unlinked', o.unlinked, idsOf),
      };
    }
    case 'exit':
      return { v: 1, kind: 'exit', pid, atMs, open: idsOf(o.open), ...optional('thread', o.thread, (x) => int(x, 1)) };
    case 'delete':
      return {
        v: 1,
        kind: 'delete',
        pid,
        atMs,
        api: textOf(o.api),
        path: textOf(o.path),
        held: idsOf(o.held),
        cwd: typeof o.cwd === 'boolean' ? o.cwd : reject(),
        ...optional('children', o.children, childHoldsOf),
        ...optional('test', o.test, textOf),
        frames: framesOf(o.frames),
      };
    case 'gc-close':
      return gcCloseRecordOf(o, pid, atMs);
    default:
      return reject();
  }
}

function openRecordOf(o: Record<string, unknown>, kind: OpenRecord['kind'], pid: number, atMs: number): OpenRecord {
  return {
    v: 1,
    kind,
    pid,
    atMs,
    api: textOf(o.api),
    path: textOf(o.path),
    fd: o.fd === null ? null : int(o.fd, 0),
    ...optional('id', o.id, (x) => int(x, 1)),
    ...optional('test', o.test, textOf),
    ...optional('scope', o.scope, scopeOf),
    ...optional('listed', o.listed, (x) => (x === true ? (true as const) : reject())),
    ...optional('cwd', o.cwd, (x) => (x === true ? (true as const) : reject())),
    ...optional('mmap', o.mmap, (x) => (x === true ? (true as const) : reject())),
    frames: framesOf(o.frames),
  };
}

function gcCloseRecordOf(o: Record<string, unknown>, pid: number, atMs: number): GcCloseRecord {
  return {
    v: 1,
    kind: 'gc-close',
    pid,
    atMs,
    resource: GC_RESOURCES.includes(o.resource as GcResource) ? (o.resource as GcResource) : reject(),
    api: textOf(o.api),
    path: textOf(o.path),
    fd: o.fd === null ? null : int(o.fd, 0),
    openedAtMs: atMsOf(o.openedAtMs),
    ...optional('test', o.test, textOf),
    ...optional('closedDuring', o.closedDuring, textOf),
    frames: framesOf(o.frames),
  };
}

export interface ParsedProbeLog {
  records: ProbeRecord[];
  /** Lines that were not a valid record. An unterminated last line is not counted: it may still be written. */
  rejectedLines: number;
}

/** Validates one parsed JSON value; undefined when it is not a record. Unknown fields are dropped. */
export function toProbeRecord(value: unknown): ProbeRecord | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  try {
    return recordOf(value as Record<string, unknown>);
  } catch (error) {
    if (error instanceof NotARecord) return undefined;
    throw error;
  }
}

/**
 * Reads one probe log file's text. The Python probe writes through a memory map grown in chunks,
 * so a live (or killed) process's file ends in NUL bytes: they end the text.
 */
export function parseProbeLog(content: string): ParsedProbeLog {
  const nul = content.indexOf('\0');
  const body = nul === -1 ? content : content.slice(0, nul);
  const lines = body.split('\n');
  lines.pop(); // after the last newline: empty, or a record still being written
  const records: ProbeRecord[] = [];
  let rejectedLines = 0;
  for (const line of lines) {
    if (line.trim().length === 0) continue;
    let record: ProbeRecord | undefined;
    try {
      record = toProbeRecord(JSON.parse(line));
    } catch {
      record = undefined;
    }
    if (record) records.push(record);
    else rejectedLines++;
  }
  return { records, rejectedLines };
}

// The hand-written probe log reader (probe-log.ts) against the zod schemas it replaced, kept here as
// the oracle: every valid record of each kind, and each field of each broken in every way the
// schemas tell apart (absent, null, wrong type, out of range, too long, too many), must be accepted or
// rejected alike, and accepted ones come out the same (unknown fields dropped, frames as StackFrames).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StackFrame } from './stacks.js';
import { parseProbeLog, toProbeRecord } from './probe-log.js';

const pid = z.number().int().positive();
const atMs = z.number().finite().nonnegative();
const text = z.string().max(32_768);

const FrameSchema = z
  .tuple([text, z.number().int().nonnegative(), z.number().int().nonnegative().nullable(), text.nullable(), z.boolean()])
  .transform(([file, line, column, fn, user]): StackFrame => ({ file, line, column, function: fn, user }));
const Frames = z.array(FrameSchema).max(256);

const ProcessSchema = z.object({
  v: z.literal(1),
  kind: z.literal('process'),
  runtime: z.enum(['python', 'node']),
  pid,
  ppid: z.number().int().nonnegative(),
  atMs,
  argv: z.array(text).max(4096),
  cwd: text.nullable(),
  thread: z.number().int().positive().optional(),
});

const OpenSchema = z.object({
  v: z.literal(1),
  kind: z.enum(['open', 'connect']),
  pid,
  atMs,
  api: text,
  path: text,
  fd: z.number().int().nonnegative().nullable(),
  id: z.number().int().positive().optional(),
  /** The test in progress in the process at the open, where the probe tracks its runner's tests. */
  test: text.optional(),
  scope: z.object({ kind: z.enum(['suite', 'file', 'session']), name: text }).optional(),
  listed: z.literal(true).optional(),
  cwd: z.literal(true).optional(),
  mmap: z.literal(true).optional(),
  frames: Frames,
});

const ids = z.array(z.number().int().positive()).max(100_000);

const TestSchema = z.object({
  v: z.literal(1),
  kind: z.literal('test'),
  pid,
  atMs,
  event: z.enum(['start', 'end']),
  name: text,
  scope: z.enum(['suite', 'file', 'session']).optional(),
  open: ids.optional(),
  unlinked: ids.optional(),
});

const ExitSchema = z.object({ v: z.literal(1), kind: z.literal('exit'), pid, atMs, open: ids, thread: z.number().int().positive().optional() });
const DeleteSchema = z.object({
  v: z.literal(1),
  kind: z.literal('delete'),
  pid,
  atMs,
  api: text,
  path: text,
  held: ids,
  cwd: z.boolean(),
  children: z
    .array(z.object({ pid, fd: z.number().int().min(0).nullable(), path: text }))
    .max(100_000)
    .optional(),
  test: text.optional(),
  frames: Frames,
});

const CloseSchema = z.object({
  v: z.literal(1),
  kind: z.literal('close'),
  pid,
  atMs,
  id: z.number().int().positive(),
  fd: z.number().int().nonnegative().nullable(),
});

const SpawnSchema = z.object({
  v: z.literal(1),
  kind: z.literal('spawn'),
  pid,
  atMs,
  api: text,
  executable: text.nullable(),
  argv: z.array(text).max(4096),
  cwd: text.nullable(),
  childPid: pid.nullable(),
  test: text.optional(),
  frames: Frames,
});

const GcCloseSchema = z.object({
  v: z.literal(1),
  kind: z.literal('gc-close'),
  pid,
  atMs,
  resource: z.literal('file'),
  api: text,
  path: text,
  fd: z.number().int().nonnegative().nullable(),
  openedAtMs: atMs,
  test: text.optional(),
  closedDuring: text.optional(),
  frames: Frames,
});

const RecordSchema = z.discriminatedUnion('kind', [ProcessSchema, OpenSchema, CloseSchema, SpawnSchema, TestSchema, ExitSchema, DeleteSchema, GcCloseSchema]);

const frame = ['/src/test_x.py', 7, null, 'test_x', true];
const BASES: Record<string, Record<string, unknown>> = {
  process: { v: 1, kind: 'process', runtime: 'python', pid: 10, ppid: 1, atMs: 1.5, argv: ['python3', '-m', 'pytest'], cwd: '/src' },
  'thread-process': { v: 1, kind: 'process', runtime: 'node', pid: 10, ppid: 1, atMs: 1.5, argv: ['node'], cwd: '/src', thread: 2 },
  open: { v: 1, kind: 'open', pid: 10, atMs: 2, api: 'open', path: '/w/a', fd: 3, id: 4, test: 't1', frames: [frame] },
  connect: { v: 1, kind: 'connect', pid: 10, atMs: 2, api: 'connect', path: '/w/s.sock', fd: null, frames: [] },
  close: { v: 1, kind: 'close', pid: 10, atMs: 3, id: 4, fd: 3 },
  spawn: {
    v: 1,
    kind: 'spawn',
    pid: 10,
    atMs: 4,
    api: 'subprocess.Popen',
    executable: null,
    argv: ['sleep', '5'],
    cwd: null,
    childPid: 11,
    test: 't1',
    frames: [frame],
  },
  test: { v: 1, kind: 'test', pid: 10, atMs: 5, event: 'end', name: 't1', open: [4], unlinked: [] },
  'scope-end': { v: 1, kind: 'test', pid: 10, atMs: 5, event: 'end', name: 'a.test.js > db', scope: 'suite', open: [4] },
  'mmap-open': { v: 1, kind: 'open', pid: 10, atMs: 2, api: 'mmap.mmap', path: '/w/data.bin', fd: null, mmap: true, frames: [frame] },
  'cwd-open': { v: 1, kind: 'open', pid: 10, atMs: 2, api: 'process.chdir', path: '/w/sub', fd: null, id: 6, test: 't1', cwd: true, frames: [frame] },
  'listed-open': {
    v: 1,
    kind: 'open',
    pid: 10,
    atMs: 2,
    api: 'native',
    path: '/w/db',
    fd: 9,
    id: 5,
    scope: { kind: 'file', name: 'a.test.js' },
    listed: true,
    frames: [],
  },
  exit: { v: 1, kind: 'exit', pid: 10, atMs: 6, open: [4, 5] },
  'thread-exit': { v: 1, kind: 'exit', pid: 10, atMs: 6, open: [2 ** 32 + 1], thread: 1 },
  delete: {
    v: 1,
    kind: 'delete',
    pid: 10,
    atMs: 7,
    api: 'rmSync',
    path: '/w',
    held: [4],
    cwd: false,
    children: [{ pid: 11, fd: null, path: '/w/a' }],
    test: 't1',
    frames: [frame],
  },
  'gc-close': {
    v: 1,
    kind: 'gc-close',
    pid: 10,
    atMs: 8,
    resource: 'file',
    api: 'open',
    path: '/w/a',
    fd: 3,
    openedAtMs: 2,
    test: 't1',
    closedDuring: 't2',
    frames: [frame],
  },
};

const long = 'x'.repeat(32_769);
const VALUES: unknown[] = [undefined, null, -1, 0, 1, 1.5, 2 ** 53, Number.MAX_VALUE, '', 'x', long, true, [], [1], {}, 'node', 'start'];

function* cases(): Generator<unknown> {
  for (const base of Object.values(BASES)) {
    yield base;
    yield { ...base, extra: 'dropped' };
    for (const key of Object.keys(base)) {
      for (const value of VALUES) {
        const c: Record<string, unknown> = { ...base };
        if (value === undefined) delete c[key];
        else c[key] = value;
        yield c;
      }
    }
    for (const key of ['argv', 'frames', 'open', 'unlinked', 'held'] as const) {
      if (!(key in base)) continue;
      const max = key === 'argv' ? 4096 : key === 'frames' ? 256 : 100_000;
      const item = key === 'argv' ? 'a' : key === 'frames' ? frame : 1;
      yield { ...base, [key]: Array.from({ length: max }, () => item) };
      yield { ...base, [key]: Array.from({ length: max + 1 }, () => item) };
      yield { ...base, [key]: [item, null] };
      yield { ...base, [key]: [item, 0] };
    }
    if ('frames' in base)
      for (const broken of [
        frame.slice(0, 4),
        [...frame, 1],
        ['f', -1, null, null, true],
        ['f', 1, 1.5, null, true],
        ['f', 1, 2, 'fn', 'yes'],
        [long, 1, null, null, false],
        ['f', 1, 0, long, false],
      ])
        yield { ...base, frames: [broken] };
    if ('children' in base)
      for (const broken of [
        null,
        1,
        {},
        { pid: 0, fd: null, path: '/w' },
        { pid: 1, fd: -1, path: '/w' },
        { pid: 1, fd: 1.5, path: '/w' },
        { pid: 1, path: '/w' },
        { pid: 1, fd: 3, path: long },
        { pid: 1, fd: 3, path: '/w', x: 1 },
      ])
        yield { ...base, children: [broken] };
  }
  yield null;
  yield [];
  yield 'process';
  yield { v: 2, ...BASES.process, kind: 'process' };
  yield { ...BASES.process, v: 2 };
}

describe('toProbeRecord', () => {
  it('accepts and rejects exactly what the zod schemas did, with the same output', () => {
    let accepted = 0;
    let rejected = 0;
    for (const value of cases()) {
      const oracle = RecordSchema.safeParse(value);
      const ours = toProbeRecord(value);
      expect(ours, JSON.stringify(value)?.slice(0, 200)).toEqual(oracle.success ? oracle.data : undefined);
      if (oracle.success) accepted++;
      else rejected++;
    }
    // Both sides are exercised: the comparison is not all-reject or all-accept.
    expect(accepted).toBeGreaterThan(50);
    expect(rejected).toBeGreaterThan(500);
  });

  it('reads a log: bad lines counted, the NUL tail and an unterminated last line ignored', () => {
    const good = JSON.stringify(BASES.process);
    const parsed = parseProbeLog(`${good}\n{"v":1,"kind":"open","pid":-3}\nnot json\n${good}\n{"v":1,"kind":"pro\0\0\0`);
    expect(parsed).toMatchObject({ rejectedLines: 2 });
    expect(parsed.records).toHaveLength(2);
  });
});

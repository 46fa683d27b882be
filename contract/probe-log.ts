// The probes' log lines, as the receiving side reads them. A probe runs inside the test process,
// which may write anything anywhere: every line is validated, bad ones are counted, none trusted.
// Wire format (version 1, shared by probes/python and probes/node), one JSON object per line:
//   process  {v, kind, runtime, pid, ppid, atMs, argv, cwd}
//   open     {v, kind:'open'|'connect', pid, atMs, api, path, fd|null, id?, mode?, flags?, test?, frames}
//   close    {v, kind:'close', pid, atMs, id, fd|null}                  (node only: fds closed)
//   spawn    {v, kind:'spawn', pid, atMs, api, executable, argv, cwd, childPid|null, frames}
//   test     {v, kind:'test', pid, atMs, event:'start'|'end', name, open?, unlinked?}  (node:test, in the
//            test's process; an end's `open` lists the ids of that test's opens still open when it ended,
//            `unlinked` those of them whose file had no name left then)
//   exit     {v, kind:'exit', pid, atMs, open}                         (node: the ids still open at exit)
//   delete   {v, kind:'delete', pid, atMs, api, path, held, cwd, test?, frames}  (node: a call deleting
//            `path` while this process had `held` (open ids) at or under it open, or its cwd there)
// A frame is [file, line, column|null, function|null, user].
import { z } from 'zod';
import type { StackFrame } from './stacks.js';

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
  open: ids.optional(),
  unlinked: ids.optional(),
});

const ExitSchema = z.object({ v: z.literal(1), kind: z.literal('exit'), pid, atMs, open: ids });
const DeleteSchema = z.object({
  v: z.literal(1),
  kind: z.literal('delete'),
  pid,
  atMs,
  api: text,
  path: text,
  held: ids,
  cwd: z.boolean(),
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
  frames: Frames,
});

const RecordSchema = z.discriminatedUnion('kind', [ProcessSchema, OpenSchema, CloseSchema, SpawnSchema, TestSchema, ExitSchema, DeleteSchema]);

export type ProcessRecord = z.infer<typeof ProcessSchema>;
export type OpenRecord = z.infer<typeof OpenSchema>;
export type CloseRecord = z.infer<typeof CloseSchema>;
export type SpawnRecord = z.infer<typeof SpawnSchema>;
export type TestBoundaryRecord = z.infer<typeof TestSchema>;
export type ExitRecord = z.infer<typeof ExitSchema>;
export type DeleteRecord = z.infer<typeof DeleteSchema>;
export type ProbeRecord = z.infer<typeof RecordSchema>;

export interface ParsedProbeLog {
  records: ProbeRecord[];
  /** Lines that were not a valid record. An unterminated last line is not counted: it may still be written. */
  rejectedLines: number;
}

/** Validates one parsed JSON value; undefined when it is not a record. */
export function toProbeRecord(value: unknown): ProbeRecord | undefined {
  const parsed = RecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
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

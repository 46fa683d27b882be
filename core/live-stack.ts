// A live stack of a holder, taken on demand by an outside tool (py-spy, gdb, eu-stack) or written
// as a minidump (Windows). Pure types and parsers of the tools' output; running them is native's job.
import { z } from 'zod';
import type { LiveStack, LiveStackFrame, LiveStackThread, LiveStackUnavailable } from '../contract/live-stack.js';

// The result types cross process boundaries (`stack --json`, the service): they live in the contract.
export type { LiveStack, LiveStackResult, LiveStackThread, LiveStackTool, LiveStackUnavailable } from '../contract/live-stack.js';

/** `reason: next step`, the one line a CLI prints. */
export function describeUnavailable(result: LiveStackUnavailable): string {
  return `${result.reason}; ${result.nextStep}`;
}

const FRAME_LINE = /^#\d+\s+(.*)$/;

/**
 * `gdb -batch -ex 'thread apply all bt'`: `Thread 2 (Thread 0x7f.. (LWP 16549) "name"):` headers,
 * then `#0  0x00007f.. in fn (args) at file.c:48` or `... from /lib/libc.so.6`. Lines that are
 * neither (attach notices, the current-frame echo) are skipped.
 */
export function parseGdbBacktrace(text: string, pid: number): LiveStackThread[] {
  const threads: LiveStackThread[] = [];
  let current: LiveStackThread | undefined;
  for (const line of text.split('\n')) {
    const header = /^Thread (\d+) \((.*)\):$/.exec(line);
    if (header) {
      const detail = header[2]!;
      const lwp = /\(LWP (\d+)\)/.exec(detail) ?? /^(?:process|LWP) (\d+)/.exec(detail);
      const name = /"([^"]*)"\s*$/.exec(detail)?.[1];
      current = { id: lwp ? Number(lwp[1]) : Number(header[1]), ...(name ? { name } : {}), frames: [] };
      threads.push(current);
      continue;
    }
    const frame = FRAME_LINE.exec(line.trimEnd());
    if (!frame) continue;
    if (!current) threads.push((current = { id: pid, frames: [] }));
    current.frames.push(parseGdbFrame(frame[1]!));
  }
  return threads;
}

function parseGdbFrame(rest: string): LiveStackFrame {
  let text = rest.replace(/^0x[0-9a-f]+ in /, '');
  const out: Partial<LiveStackFrame> = {};
  const at = / at (\S+):(\d+)$/.exec(text);
  const from = / from (\S+)$/.exec(text);
  if (at) {
    out.file = at[1]!;
    out.line = Number(at[2]);
    text = text.slice(0, at.index);
  } else if (from) {
    out.module = from[1]!;
    text = text.slice(0, from.index);
  }
  // `fn (args)`: the name ends at the argument list gdb prints after a space.
  const open = text.indexOf(' (');
  return { function: open >= 0 ? text.slice(0, open) : text, ...out };
}

/**
 * `eu-stack -m -s -p N`: `TID 16548:` headers, `#0  0x00007f.. clock_nanosleep@GLIBC_2.2.5 - /lib/libc.so.6`
 * frames, each optionally followed by an indented `file.c:48:7` source line.
 */
export function parseEuStack(text: string): LiveStackThread[] {
  const threads: LiveStackThread[] = [];
  let current: LiveStackThread | undefined;
  let last: LiveStackFrame | undefined;
  for (const line of text.split('\n')) {
    const header = /^TID (\d+):$/.exec(line.trim());
    if (header) {
      current = { id: Number(header[1]), frames: [] };
      threads.push(current);
      last = undefined;
      continue;
    }
    const frame = /^#\d+\s+0x[0-9a-f]+\s*(.*)$/.exec(line.trimEnd());
    if (frame && current) {
      const [symbol, module] = splitOnce(frame[1]!, ' - ');
      // Symbol versions (`@GLIBC_2.2.5`, `@@GLIBC_2.34`) are the linker's, not the function's name.
      last = { function: symbol.replace(/@@?[A-Za-z0-9_.]+$/, '') || '??', ...(module ? { module } : {}) };
      current.frames.push(last);
      continue;
    }
    const source = /^\s+(\S+?):(\d+)(?::\d+)?$/.exec(line);
    if (source && last && last.file === undefined) {
      last.file = source[1]!;
      last.line = Number(source[2]);
    }
  }
  return threads;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text.trim(), undefined] : [text.slice(0, at).trim(), text.slice(at + separator.length).trim()];
}

// `py-spy dump --json`: py-spy's StackTrace records (src/stack_trace.rs), innermost frame first.
const pySpyTraces = z.array(
  z.object({
    thread_id: z.number(),
    thread_name: z.string().nullish(),
    os_thread_id: z.number().nullish(),
    active: z.boolean().optional(),
    frames: z.array(
      z.object({
        name: z.string(),
        filename: z.string(),
        module: z.string().nullish(),
        line: z.number(),
      }),
    ),
  }),
);

/** Throws when the text is not py-spy's JSON (a version that changed it says so rather than lying). */
export function parsePySpyJson(text: string): LiveStackThread[] {
  return pySpyTraces.parse(JSON.parse(text)).map((trace) => ({
    id: trace.os_thread_id ?? trace.thread_id,
    ...(trace.thread_name ? { name: trace.thread_name } : {}),
    ...(trace.active === undefined ? {} : { state: trace.active ? 'active' : 'idle' }),
    frames: trace.frames.map((f) => ({
      function: f.name,
      file: f.filename,
      ...(f.line > 0 ? { line: f.line } : {}),
      ...(f.module ? { module: f.module } : {}),
    })),
  }));
}

/**
 * What a tool's stderr says when the OS refused it. ptrace is refused to another user's process,
 * and, under Yama scope 1, to any process that is not our descendant.
 */
export function isPermissionFailure(stderr: string): boolean {
  return /Operation not permitted|Permission denied|EPERM|elevated permissions/i.test(stderr);
}

/** One line per frame, `fn (file:line)` or `fn [module]`, threads separated by a header. */
export function formatLiveStack(stack: LiveStack): string {
  const lines: string[] = [];
  if (stack.dumpPath) lines.push(`minidump: ${stack.dumpPath}`);
  if (stack.note) lines.push(`note: ${stack.note}`);
  for (const thread of stack.threads) {
    const extras = [thread.name && `"${thread.name}"`, thread.state, thread.startAddress && `start ${thread.startAddress}`].filter(Boolean);
    lines.push(`thread ${thread.id}${extras.length ? ` ${extras.join(' ')}` : ''}`);
    for (const f of thread.frames) {
      const where = f.file ? ` (${f.file}${f.line ? `:${f.line}` : ''})` : f.module ? ` [${f.module}]` : '';
      lines.push(`  ${f.function}${where}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

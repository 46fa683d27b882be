// Live stacks on demand (`holdwatch stack --json`, the details panel): parsed in core/live-stack.ts.
import { z } from 'zod';
import { pid } from './primitives.js';

export const LiveStackToolSchema = z.enum(['py-spy', 'gdb', 'eu-stack', 'minidump']);
export type LiveStackTool = z.infer<typeof LiveStackToolSchema>;

export const LiveStackFrameSchema = z.object({
  function: z.string(),
  file: z.string().optional(),
  line: z.number().optional(),
  /** The shared object or module the frame is in, when the tool names it. */
  module: z.string().optional(),
});
export type LiveStackFrame = z.infer<typeof LiveStackFrameSchema>;

export const LiveStackThreadSchema = z.object({
  /** OS thread id (LWP on Linux, TID on Windows) where the tool gives it. */
  id: z.number(),
  name: z.string().optional(),
  /** Innermost first. Empty for a minidump: its frames are resolved by WinDbg/Visual Studio. */
  frames: z.array(LiveStackFrameSchema),
  /** Windows: the scheduler's view (Waiting, Running...) and why it waits. */
  state: z.string().optional(),
  /** Windows: the thread's start address, hex. */
  startAddress: z.string().optional(),
});
export type LiveStackThread = z.infer<typeof LiveStackThreadSchema>;

export const LiveStackSchema = z.object({
  kind: z.literal('stack'),
  pid,
  tool: LiveStackToolSchema,
  threads: z.array(LiveStackThreadSchema),
  /** The minidump written (Windows), to open in WinDbg or Visual Studio. */
  dumpPath: z.string().optional(),
  /** A limit the user should know of, e.g. native frames only because py-spy is missing. */
  note: z.string().optional(),
  /** What the tool printed, for a user who wants more than the parsed frames. */
  rawText: z.string(),
});
export type LiveStack = z.infer<typeof LiveStackSchema>;

export const LiveStackUnavailableSchema = z.object({
  kind: z.literal('unavailable'),
  pid,
  /** One line: what is missing (a tool, a privilege). */
  reason: z.string(),
  /** One line: what to do about it. */
  nextStep: z.string(),
  tool: LiveStackToolSchema.optional(),
});
export type LiveStackUnavailable = z.infer<typeof LiveStackUnavailableSchema>;

/** What `holdwatch stack --json` prints. */
export const LiveStackResultSchema = z.discriminatedUnion('kind', [LiveStackSchema, LiveStackUnavailableSchema]);
export type LiveStackResult = z.infer<typeof LiveStackResultSchema>;

/** What captureLiveStack answers: the stack with its text as `holdwatch stack` prints it, or what is missing. */
export const CapturedLiveStackSchema = z.discriminatedUnion('kind', [LiveStackSchema.extend({ text: z.string() }), LiveStackUnavailableSchema]);
export type CapturedLiveStack = z.infer<typeof CapturedLiveStackSchema>;

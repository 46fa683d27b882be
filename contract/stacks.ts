// Open-time and spawn-time stacks, as the probes (probes/python, probes/node) record them and
// core/stacks matches them to holders.
import { z } from 'zod';
import { pid } from './primitives.js';

/** One frame of a recorded stack, innermost first. `user` is false for the runtime's own library, installed packages. */
export const StackFrameSchema = z.object({
  file: z.string(),
  line: z.number(),
  column: z.number().nullable(),
  function: z.string().nullable(),
  user: z.boolean(),
});
export type StackFrame = z.infer<typeof StackFrameSchema>;

/**
 * A probed call that deleted a path while a holding lay at or under it: on Windows that call fails
 * (EBUSY, EPERM, ENOTEMPTY). Its API and stack, as the probe recorded them; `pid` is set when the
 * deleting process is not the holder's own but an ancestor whose live child held it.
 */
export const DeletedBySchema = z.object({
  api: z.string(),
  atMs: z.number(),
  path: z.string(),
  frames: z.array(StackFrameSchema),
  pid: pid.optional(),
});
export type DeletedBy = z.infer<typeof DeletedBySchema>;

/** The call that opened a holder's file (`open`, `connect`) or started its process (`spawn`), as a probe recorded it. */
export const OpenStackSchema = z.object({
  kind: z.enum(['open', 'connect', 'spawn']),
  /** `strace`: the syscall ledger of a process no probe runs in (a Go test binary); it records no frames. */
  runtime: z.enum(['python', 'node', 'strace']),
  /** The process that made the call (for a spawn: the parent). */
  pid,
  /** Milliseconds since the Unix epoch, taken by the probe at the call. */
  atMs: z.number(),
  /** The test in progress in that process at the call, where the probe knows it (its runner told it). */
  test: z.string().nullable().optional(),
  /**
   * Without `test`: the tests running side by side (t.Parallel) when the syscall ledger saw the open; it
   * cannot tell which of them made it, so the test comes from weaker evidence.
   */
  ambiguousAmong: z.array(z.string()).optional(),
  /** Made outside any test: the wider scope running then (a suite's or file's hooks, import time, the session). */
  scope: z.object({ kind: z.enum(['suite', 'file', 'session']), name: z.string() }).optional(),
  /**
   * Found in the process's own descriptor list at a scope's start or end, not at a wrapped call (a
   * native addon's open): which scope is exact, the line is unknown (no frames).
   */
  listed: z.boolean().optional(),
  /**
   * Set when the probe wrote the end of that test (or of that scope): whether this open was still open
   * then (it outlived its test or scope).
   */
  heldPastTest: z.boolean().optional(),
  /** The probe found the file unlinked while this was open (at that test's end): Linux's `(deleted)`, Windows' delete-pending. */
  unlinkedWhileOpen: z.boolean().optional(),
  /** A call in the same process deleted the file, or a dir above it, while this was open. */
  deletedBy: DeletedBySchema.optional(),
  /** The API called: `open`, `os.open`, `fs.createWriteStream`, `subprocess.Popen`... */
  api: z.string(),
  /** The path opened, absolute as the probe saw it; null for a spawn. */
  path: z.string().nullable(),
  fd: z.number().nullable(),
  /** A spawn's command line and started child, when the probe knew its pid. */
  argv: z.array(z.string()).nullable(),
  childPid: z.number().nullable(),
  frames: z.array(StackFrameSchema),
});
export type OpenStack = z.infer<typeof OpenStackSchema>;

/** What a lookup found: the stack and how it was matched, or why there is none. */
export const StackLookupSchema = z.union([
  z.object({
    found: z.literal(true),
    stack: OpenStackSchema,
    /** How the record was paired with the holder or process. */
    matchedBy: z.enum(['fd', 'path', 'child-pid', 'parent-argv', 'fork']),
    /** Set when the record belongs to an ancestor: an inherited fd, or the process that started a shell. */
    viaPid: z.number().nullable(),
  }),
  z.object({ found: z.literal(false), reason: z.string() }),
]);
export type StackLookup = z.infer<typeof StackLookupSchema>;

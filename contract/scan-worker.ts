// The scanner worker's wire (`holdwatch scan-worker`): newline-delimited JSON over a named pipe
// (Windows) or a unix socket (Linux). The worker may run with other rights than the host (elevated),
// so each side validates what it reads with these schemas; neither trusts the other's lines.
// The worker connects and speaks first (`hello` with the token the host gave it on its command line);
// then the host sends requests (core's HolderSource interface) and the worker answers each by id.
// The types of that interface's requests and results are derived here.
import { z } from 'zod';
import { DeniedProcessSchema, HandleAccessSchema, HolderSchema, PlatformNameSchema, ProcessInfoSchema, UnnamedHandlesSchema } from './holders.js';

/** A line longer than this is refused, not buffered: 8,000 holders are about 3 MB. */
export const MAX_WORKER_LINE_BYTES = 64 * 1024 * 1024;
/** Handles one processExtras request asks about; the host sends no more (the rest keep the scan's access). */
export const MAX_EXTRAS_HANDLES = 10_000;

const requestId = z.number().int().nonnegative();

/**
 * A watched directory after the backend resolved it: symlinks followed (Linux), kernel name found
 * (Windows). `matchPrefix` is what raw handle paths are compared against; `display` is what users see.
 */
export const WatchDirSchema = z.object({
  /** What the user typed. */
  input: z.string(),
  /** Absolute, canonical, shown to users (DOS form on Windows). */
  display: z.string(),
  /** Canonical form raw OS paths are matched against (kernel form on Windows). */
  matchPrefix: z.string().min(1),
  /** Windows matches case-insensitively; Linux does not. */
  caseInsensitive: z.boolean(),
  /**
   * The same dir's raw name in other spellings a handle may carry (Windows: its 8.3 short form; a handle
   * keeps the name it was opened by, and GitHub's runners set TEMP=C:\Users\RUNNER~1\...). Matched like
   * `matchPrefix`; a holder found through one is shown under `display`.
   */
  aliasPrefixes: z.array(z.string().min(1)).max(8).optional(),
});
export type WatchDir = z.infer<typeof WatchDirSchema>;

export const ScanRequestSchema = z.object({
  dirs: z.array(WatchDirSchema).min(1).max(64).readonly(),
  /**
   * Restrict the scan to these processes (the cheap, frequent poll of the processes that matter).
   * Absent means the whole system.
   */
  pids: z.array(z.number().int().nonnegative()).readonly().optional(),
  /**
   * A whole-system scan of a watch whose change feed saw nothing opened under the dirs since its last
   * thorough scan: a process that held nothing there then may be walked only if its fds, cwd or root
   * changed (native/linux/quiet-processes.ts). Backends without that memory scan everything.
   */
  idleCheck: z.boolean().optional(),
});
export type ScanRequest = z.infer<typeof ScanRequestSchema>;

export const ScanResultSchema = z.object({
  holders: z.array(HolderSchema),
  denied: z.array(DeniedProcessSchema),
  unnamed: z.array(UnnamedHandlesSchema),
  /** Processes examined; with `handleCount`, what the scan cost. */
  processCount: z.number().int().nonnegative(),
  handleCount: z.number().int().nonnegative(),
});
export type ScanResult = z.infer<typeof ScanResultSchema>;

/** Handle names are short (`fd 5`, `0x1a4`); the record is keyed by the names asked for. */
const handleName = z.string().min(1).max(64);

/** One process's facts beyond ProcessInfo, read fresh (never from a scan's caches). */
export const ProcessExtrasSchema = z.object({
  /** Current directory; null when unreadable, with the reason. */
  cwd: z.string().nullable(),
  cwdUnreadableReason: z.string().nullable(),
  /** Every open handle (Linux fds; Windows all object types); null when unreadable. */
  handleCount: z.number().int().nonnegative().nullable(),
  /** Per asked-for handle (`fd 5`): its access and locks read now; absent when the backend has no fresher view than the scan. */
  handles: z.record(handleName, z.object({ access: HandleAccessSchema.nullable(), locks: z.array(z.string()) })),
});
export type ProcessExtras = z.infer<typeof ProcessExtrasSchema>;

/** Host -> worker: one HolderSource call. */
export const WorkerRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('resolveWatchDir'), id: requestId, input: z.string().min(1).max(32_768) }),
  z.object({ type: z.literal('scan'), id: requestId, request: ScanRequestSchema }),
  z.object({ type: z.literal('processInfo'), id: requestId, pid: z.number().int().nonnegative() }),
  z.object({ type: z.literal('processExtras'), id: requestId, pid: z.number().int().nonnegative(), handles: z.array(handleName).max(MAX_EXTRAS_HANDLES) }),
  /** Closes one handle with the worker's rights (elevated), under the same checks as in the host (native/win32/close-handle.ts). */
  z.object({
    type: z.literal('closeHandle'),
    id: requestId,
    target: z.object({
      pid: z.number().int().positive(),
      startedAtMs: z.number(),
      handle: handleName,
      dirs: z.array(WatchDirSchema).min(1).max(64),
      /** The host's own pids (the worker adds its own): never touched. */
      ownPids: z.array(z.number().int().positive()).max(64),
    }),
    path: z.string().min(1).max(32_768),
  }),
]);
export type WorkerRequest = z.infer<typeof WorkerRequestSchema>;

/** A failure crossing the pipe: `badInput` turns back into BadInputError on the host side. */
const WorkerErrorSchema = z.object({ message: z.string(), badInput: z.boolean() });

/** Worker -> host. `value` is checked against the request's own result schema once the id is matched. */
export const WorkerReplySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    token: z.string().min(16).max(256),
    pid: z.number().int().positive(),
    platform: PlatformNameSchema,
    elevated: z.boolean(),
  }),
  z.object({ type: z.literal('result'), id: requestId, value: z.unknown() }),
  z.object({ type: z.literal('error'), id: requestId, error: WorkerErrorSchema }),
]);
export type WorkerReply = z.infer<typeof WorkerReplySchema>;

/** What each request answers, validated on the host once the reply's id is matched to its request. */
export const WORKER_RESULTS = {
  resolveWatchDir: WatchDirSchema,
  scan: ScanResultSchema,
  processInfo: ProcessInfoSchema.nullable(),
  processExtras: ProcessExtrasSchema.nullable(),
  closeHandle: z.null(),
} as const;

// The scanner worker's wire (`holdwatch scan-worker`): newline-delimited JSON over a named pipe
// (Windows) or a unix socket (Linux). The worker may run with other rights than the host (elevated),
// so each side validates what it reads with these schemas; neither trusts the other's lines.
// The worker connects and speaks first (`hello` with the token the host gave it on its command line);
// then the host sends requests (the HolderSource interface) and the worker answers each by id.
import { z } from 'zod';
import { DeniedProcessSchema, HandleAccessSchema, HolderSchema, ProcessInfoSchema, UnnamedHandlesSchema } from './api-contract.js';
import type { ProcessExtras, ScanRequest, ScanResult, WatchDir } from './platform.js';

/** A line longer than this is refused, not buffered: 8,000 holders are about 3 MB. */
export const MAX_WORKER_LINE_BYTES = 64 * 1024 * 1024;
/** Handles one processExtras request asks about; the host sends no more (the rest keep the scan's access). */
export const MAX_EXTRAS_HANDLES = 10_000;

const platform = z.enum(['linux', 'win32', 'darwin']);
const requestId = z.number().int().nonnegative();

const WatchDirSchema: z.ZodType<WatchDir> = z.object({
  input: z.string(),
  display: z.string(),
  matchPrefix: z.string().min(1),
  caseInsensitive: z.boolean(),
});

const ScanRequestSchema: z.ZodType<ScanRequest> = z.object({
  dirs: z.array(WatchDirSchema).min(1).max(64),
  pids: z.array(z.number().int().nonnegative()).optional(),
});

export const ScanResultSchema: z.ZodType<ScanResult> = z.object({
  holders: z.array(HolderSchema),
  denied: z.array(DeniedProcessSchema),
  unnamed: z.array(UnnamedHandlesSchema),
  processCount: z.number().int().nonnegative(),
  handleCount: z.number().int().nonnegative(),
});

/** Handle names are short (`fd 5`, `0x1a4`); the record is keyed by the names asked for. */
const handleName = z.string().min(1).max(64);

export const ProcessExtrasSchema: z.ZodType<ProcessExtras> = z.object({
  cwd: z.string().nullable(),
  cwdUnreadableReason: z.string().nullable(),
  handleCount: z.number().int().nonnegative().nullable(),
  handles: z.record(handleName, z.object({ access: HandleAccessSchema.nullable(), locks: z.array(z.string()) })),
});

/** Host -> worker: one HolderSource call. */
export const WorkerRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('resolveWatchDir'), id: requestId, input: z.string().min(1).max(32_768) }),
  z.object({ type: z.literal('scan'), id: requestId, request: ScanRequestSchema }),
  z.object({ type: z.literal('processInfo'), id: requestId, pid: z.number().int().nonnegative() }),
  z.object({ type: z.literal('processExtras'), id: requestId, pid: z.number().int().nonnegative(), handles: z.array(handleName).max(MAX_EXTRAS_HANDLES) }),
]);
export type WorkerRequest = z.infer<typeof WorkerRequestSchema>;

/** A failure crossing the pipe: `badInput` turns back into BadInputError on the host side. */
const WorkerErrorSchema = z.object({ message: z.string(), badInput: z.boolean() });

/** Worker -> host. `value` is checked against the request's own result schema once the id is matched. */
export const WorkerReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), token: z.string().min(16).max(256), pid: z.number().int().positive(), platform, elevated: z.boolean() }),
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
} as const;

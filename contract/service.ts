// The service every front end speaks (the CLI in-process, Electron over IPC, `holdwatch ui` over a
// WebSocket): each method once, with the schema of what it takes and what it answers. The
// HoldwatchService type is derived from that table, so a method cannot exist without its schemas;
// IPC channel names and the WebSocket protocol derive from it too (service-client.ts).
import { z } from 'zod';
import { ProcessDetailsSchema } from './details.js';
import { SnapshotSchema, type WatchEvent } from './holders.js';
import { HolderStacksSchema } from './journal.js';
import { CapturedLiveStackSchema } from './live-stack.js';
import { boundedPath, id, pid } from './primitives.js';
import { ActiveRunSchema, RunEventSchema, type RunEvent } from './runs.js';
import { WatchColumnsSchema } from './watch-columns.js';

const dirs = z.array(boundedPath).min(1).max(64);
const nothing = z.undefined();
/** Void results travel as null (JSON has no undefined) and arrive as undefined. */
const done = z.union([z.null(), z.undefined()]).transform(() => undefined);

export const ScanRequestSchema = z.strictObject({ dirs });
export type ScanRequestDto = z.infer<typeof ScanRequestSchema>;

export const WatchRequestSchema = z.strictObject({
  dirs,
  /** Full-system scan period. */
  intervalMs: z.number().int().min(20).max(3_600_000).optional(),
});
export type WatchRequestDto = z.infer<typeof WatchRequestSchema>;

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');
export const RunRequestSchema = z.strictObject({
  /** The test command, program first (no shell). */
  command: z.array(z.string().max(32_768)).min(1).max(1000),
  /** Its working directory; relative to, and when empty, the directory holdwatch was started in (launchDir). */
  cwd: z.string().max(32_768),
  /** Directories to watch while it runs. */
  dirs,
  /** Variables added to the host's environment for the command (`NAME=value cmd` in the UI). */
  env: z.record(envName, z.string().max(32_768)).optional(),
});
export type RunRequestDto = z.infer<typeof RunRequestSchema>;

/** A process as the user saw it: (pid, start time), so a reused pid is refused, not acted on. */
const ProcessIdentitySchema = z.strictObject({ pid: pid.min(1), startedAtMs: z.number() });
export type EndProcessRequestDto = z.infer<typeof ProcessIdentitySchema>;
export type LiveStackRequestDto = z.infer<typeof ProcessIdentitySchema>;

/** One handle as the user saw it: its process (pid + start time), its value and the path it named then. */
export const CloseHandleRequestSchema = ProcessIdentitySchema.extend({
  /** As scans show it: `0x1a4`. */
  handle: z.string().min(1).max(64),
  path: boundedPath,
});
export type CloseHandleRequestDto = z.infer<typeof CloseHandleRequestSchema>;

export const ReportFormatSchema = z.enum(['md', 'json', 'html']);
export type ReportFormat = z.infer<typeof ReportFormatSchema>;

export const ExportRequestSchema = z.strictObject({ runId: id, format: ReportFormatSchema, redact: z.boolean() });
export type ExportRequestDto = z.infer<typeof ExportRequestSchema>;

export const ExportedReportSchema = z.object({ fileName: z.string(), mimeType: z.string(), text: z.string() });
export type ExportedReport = z.infer<typeof ExportedReportSchema>;

/** A watch's scanner: in the host, or in a separate worker process started elevated. */
export const ScannerStatusSchema = z.object({
  /** `starting`: the worker is being started (the consent prompt, node start-up); scans go on in the host meanwhile. */
  mode: z.enum(['in-process', 'starting', 'worker']),
  /** The worker says it runs as administrator (root); false in the host and while starting. */
  elevated: z.boolean(),
  /** "Scan as administrator" can be offered here (Windows, not already an administrator). */
  canElevate: z.boolean(),
  /** When it cannot: the next step to see denied processes (e.g. `sudo holdwatch ui`); null when there is none to give. */
  hint: z.string().nullable(),
  /** The last attempt's outcome (declined, failed, the worker stopped) as a sentence with the next step; null when none. */
  message: z.string().nullable(),
});
export type ScannerStatus = z.infer<typeof ScannerStatusSchema>;

/** After each full scan of a watch: how the live view stands, for progress and honesty about gaps. */
export const WatchStatusSchema = z.object({
  /** Full scans done so far; 0 while the first (slowest) one runs. */
  scans: z.number().int().nonnegative(),
  holders: z.number().int().nonnegative(),
  denied: z.number().int().nonnegative(),
  /** Of `denied`, those Windows protects: running as administrator will not show them. */
  protectedDenied: z.number().int().nonnegative().optional(),
  /** Set when the watch failed and stopped; a readable sentence with the next step. */
  error: z.string().nullable(),
  /** Set while scans fail for a passing lack of resources (EMFILE): the watch goes on and retries. */
  retrying: z.string().nullable().optional(),
  /** Where this watch's scans run, and whether they can run elevated. */
  scanner: ScannerStatusSchema.optional(),
});
export type WatchStatus = z.infer<typeof WatchStatusSchema>;

/**
 * A directory the app was asked to open on (its command line, the Explorer context menu, a second
 * instance): the checked absolute path, or why it cannot be watched, as one sentence for the start screen.
 */
export const DirToOpenSchema = z.union([z.strictObject({ dir: boundedPath }), z.strictObject({ problem: z.string().min(1).max(4096) })]);
export type DirToOpen = z.infer<typeof DirToOpenSchema>;

/** Every method, once: what it takes and what it answers. */
export const SERVICE_METHODS = {
  scan: { request: ScanRequestSchema, result: SnapshotSchema },
  startWatch: { request: WatchRequestSchema, result: z.object({ watchId: id }) },
  stopWatch: { request: id, result: done },
  /** Runs a test command under holdwatch (what `holdwatch run` does), its output captured, not passed through. */
  startRun: { request: RunRequestSchema, result: z.object({ runId: id }) },
  /** Ends a run's command (SIGTERM to it); the run still ends with its record. For an attached run: detaches. */
  stopRun: { request: id, result: done },
  /** Process facts and ancestry for a pid; null when it is gone. */
  getProcessDetails: { request: pid, result: ProcessDetailsSchema.nullable() },
  /** Ends a process, identified by (pid, start time); refuses holdwatch itself and system processes. */
  endProcess: { request: ProcessIdentitySchema, result: done },
  /**
   * Closes one handle of a process (Windows: DuplicateHandle with DUPLICATE_CLOSE_SOURCE) while the
   * process is the one seen and the handle still names `path`; refused on Linux, for holdwatch, system
   * and protected processes, and a process's current directory. The process may crash when it next uses it.
   */
  closeHandle: { request: CloseHandleRequestSchema, result: done },
  /** The live stack of a process identified by (pid, start time): py-spy/gdb/eu-stack, or a minidump on Windows. */
  captureLiveStack: { request: ProcessIdentitySchema, result: CapturedLiveStackSchema },
  exportReport: { request: ExportRequestSchema, result: ExportedReportSchema },
  /**
   * The open and spawn stacks of one holder of a run started here, matched now from the probes' logs
   * as far as they go: while the run goes, not only at its end. null: no such run or holder, or a run
   * this session only follows (its probes' logs belong to the terminal's holdwatch).
   */
  getHolderStacks: { request: z.object({ runId: id, key: z.string().min(1).max(8192) }), result: HolderStacksSchema.nullable() },
  /** Shows the path in the host's file manager: its folder is opened, nothing is ever executed. */
  revealPath: { request: boundedPath, result: done },
  /** Directories watched before, most recent first. */
  listRecentDirs: { request: nothing, result: z.array(z.string()) },
  /** The directory this app was started on (`holdwatch ui --watch`, the desktop app's argument), or null. */
  dirToOpen: { request: nothing, result: DirToOpenSchema.nullable() },
  /** The system temp dir: where most teardown failures happen. */
  defaultDir: { request: nothing, result: z.string() },
  /** The directory holdwatch was started in: a run's working directory when the form leaves it empty. */
  launchDir: { request: nothing, result: z.string() },
  /** Runs `holdwatch run` started in a terminal that are still going, newest first. */
  listActiveRuns: { request: nothing, result: z.array(ActiveRunSchema) },
  /**
   * Follows one of them: its RunEvents arrive under its runId as for a run started here (the record
   * replayed first, then live). stopRun detaches; the terminal run is never signalled.
   */
  attachRun: { request: id, result: done },
  /**
   * "Scan as administrator": restarts only this watch's scanner, as an elevated worker process (the
   * UI and the watch keep running). Resolves when it scans, or with the reason it does not (declined).
   */
  elevateScanner: { request: id, result: ScannerStatusSchema },
} as const satisfies Record<string, { request: z.ZodType; result: z.ZodType }>;

type Methods = typeof SERVICE_METHODS;
export type ServiceMethod = keyof Methods;
/** What a method takes, once validated; `undefined` for a method that takes nothing. */
export type RequestOf<M extends ServiceMethod> = z.output<Methods[M]['request']>;
/** What a method answers, once validated. */
export type ResultOf<M extends ServiceMethod> = z.output<Methods[M]['result']>;
type Call<M extends ServiceMethod> = [RequestOf<M>] extends [undefined]
  ? () => Promise<ResultOf<M>>
  : (request: RequestOf<M>) => Promise<[ResultOf<M>] extends [undefined] ? void : ResultOf<M>>;

/** One poll's watch events, or one slice of them (subscribeAll cuts a poll into these), as columns. */
export const WatchEventsMessageSchema = z.object({
  channel: z.literal('watch'),
  watchId: id,
  columns: WatchColumnsSchema,
});
export type WatchEventsMessage = z.infer<typeof WatchEventsMessageSchema>;

/** Everything the service pushes, on one stream. */
export const ServiceEventSchema = z.discriminatedUnion('channel', [
  WatchEventsMessageSchema,
  z.object({ channel: z.literal('watch-status'), watchId: id, status: WatchStatusSchema }),
  z.object({ channel: z.literal('run'), runId: id, event: RunEventSchema }),
  /** A second start of the app named a directory: the window opens onto it. */
  z.object({ channel: z.literal('open-dir'), request: DirToOpenSchema }),
]);
export type ServiceEvent = z.infer<typeof ServiceEventSchema>;

/** Subscriptions to the event stream, one per channel; each returns its unsubscribe function. */
export interface ServiceSubscriptions {
  /** Each poll's changes at once (a first scan: every holder), in the order the watch saw them. */
  onWatchEvents(listener: (watchId: string, events: readonly WatchEvent[]) => void): () => void;
  onWatchStatus(listener: (watchId: string, status: WatchStatus) => void): () => void;
  onRunEvent(listener: (runId: string, event: RunEvent) => void): () => void;
  onOpenDirRequest(listener: (request: DirToOpen) => void): () => void;
}

export type HoldwatchService = { [M in ServiceMethod]: Call<M> } & ServiceSubscriptions;

export const SERVICE_METHOD_NAMES = Object.keys(SERVICE_METHODS) as ServiceMethod[];

/** Electron's channels, declared once: one per method, and one for the event stream. */
export const IPC_PREFIX = 'holdwatch:';
export const IPC_EVENT_CHANNEL = `${IPC_PREFIX}event`;
export const ipcChannelOf = (method: ServiceMethod): string => `${IPC_PREFIX}${method}`;

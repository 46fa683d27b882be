// What a platform backend (native/<os>) provides to core. Core decides; backends only report OS facts.
import type { PlatformName, ProcessInfo } from '../contract/holders.js';
import type { ProcessExtras, ScanRequest, ScanResult, WatchDir } from '../contract/scan-worker.js';
import type { LiveStackResult } from './live-stack.js';

// The shapes that also cross the scanner worker's pipe are schemas in contract/scan-worker.ts.
export type { ProcessExtras, ScanRequest, ScanResult, WatchDir };

export interface HolderSource {
  readonly platform: PlatformName;
  /** Throws BadInputError when the input names no readable directory. */
  resolveWatchDir(input: string): Promise<WatchDir>;
  scan(request: ScanRequest): Promise<ScanResult>;
  /** Process facts for a pid, or null when it is gone. */
  processInfo(pid: number): Promise<ProcessInfo | null>;
  /** Facts the details panel reads on demand for one process; null when it is gone. Optional per backend. */
  processExtras?(pid: number, handles: readonly string[]): Promise<ProcessExtras | null>;
  /** Releases workers, cached process handles and the like. Idempotent. */
  dispose(): Promise<void>;
}

/** The cheap facts needed to follow a process tree: listed for every process on each refresh. */
export interface ProcessBrief {
  pid: number;
  ppid: number;
  startedAtMs: number;
  name: string;
}

/** Following a run's processes: the tree, and the run tag in each process's environment. */
export interface ProcessSource {
  /**
   * Every process now. `fresh: false` lets a backend reuse what it read for pids it already listed
   * (a frequent poll of a stable tree); a backend re-reads them at least about once a second while
   * processes start or end (Linux: while none does, its last list stands), and `fresh: true` (the
   * default) always reads everything.
   */
  listProcesses(options?: { fresh?: boolean }): Promise<ProcessBrief[]>;
  /** Full facts for one process, or null when it is gone. */
  processInfo(pid: number): Promise<ProcessInfo | null>;
  /** The value of `name` in the process's environment; null when absent, unreadable or gone. */
  readEnvironmentVariable(pid: number, name: string): Promise<string | null>;
}

/** A live stack of one process on demand (py-spy/gdb/eu-stack on Linux, a minidump on Windows). Optional per backend. */
export interface LiveStackSource {
  /**
   * The stack, or `unavailable` with the missing tool or privilege and the next step.
   * Throws BadInputError when no process has this pid, or (given `startedAtMs`, the process the user
   * saw) when the pid now belongs to another process: a stack is never taken of the wrong one.
   */
  liveStack(pid: number, startedAtMs?: number): Promise<LiveStackResult>;
}

/**
 * Signs of change far cheaper than a scan, read at a watch's fast pace (native/<os>/): a watch scans
 * the whole system only when these, or its pace (core/poll-pace.ts), say so.
 */
export interface ChangeFeed {
  /** What happened since the last call; reads only what is cheap. */
  take(): ChangeNews;
  /**
   * Every dir under the watched dirs is seen: a process can then come to hold something there without
   * `underDirs` only by a chdir or a fd it receives, so a quiet spell's scans may ask for an idleCheck.
   */
  readonly coversTree: boolean;
  /** Idempotent. */
  dispose(): void;
}

export interface ChangeNews {
  /** Something under the watched dirs was opened, closed, created, removed or moved: by any process. */
  underDirs: boolean;
  /** Processes that started since the last call: a scan of just these answers for them. */
  started: number[];
  /** Processes that ended since the last call: the holders of any of them are gone. */
  ended: number[];
}

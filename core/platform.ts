// What a platform backend (native/<os>) provides to core. Core decides; backends only report OS facts.
import type { DeniedProcess, HandleAccess, Holder, PlatformName, ProcessInfo, UnnamedHandles } from './api.js';
import type { LiveStackResult } from './live-stack.js';

/**
 * A watched directory after the backend resolved it: symlinks followed (Linux), kernel name found
 * (Windows). `matchPrefix` is what raw handle paths are compared against; `display` is what users see.
 */
export interface WatchDir {
  /** What the user typed. */
  input: string;
  /** Absolute, canonical, shown to users (DOS form on Windows). */
  display: string;
  /** Canonical form raw OS paths are matched against (kernel form on Windows). */
  matchPrefix: string;
  /** Windows matches case-insensitively; Linux does not. */
  caseInsensitive: boolean;
}

export interface ScanRequest {
  dirs: readonly WatchDir[];
  /**
   * Restrict the scan to these processes (the cheap, frequent poll of the processes that matter).
   * Absent means the whole system.
   */
  pids?: readonly number[];
}

export interface ScanResult {
  holders: Holder[];
  denied: DeniedProcess[];
  unnamed: UnnamedHandles[];
  /** Processes examined; with `handles`, what the scan cost. */
  processCount: number;
  handleCount: number;
}

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

/** One process's facts beyond ProcessInfo, read fresh (never from a scan's caches). */
export interface ProcessExtras {
  /** Current directory; null when unreadable, with the reason. */
  cwd: string | null;
  cwdUnreadableReason: string | null;
  /** Every open handle (Linux fds; Windows all object types); null when unreadable. */
  handleCount: number | null;
  /** Per asked-for handle (`fd 5`): its access and locks read now; absent when the backend has no fresher view than the scan. */
  handles: Record<string, { access: HandleAccess | null; locks: string[] }>;
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
   * (a frequent poll of a stable tree); a backend re-reads them at least about once a second anyway,
   * and `fresh: true` (the default) always reads everything.
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
   * Throws BadInputError when no process has this pid.
   */
  liveStack(pid: number): Promise<LiveStackResult>;
}

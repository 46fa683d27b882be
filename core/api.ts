// The one contract: every type that crosses a process boundary (CLI JSON, worker stdio, IPC,
// WebSocket) is described here and nowhere else. Keep it free of Node and DOM types: the renderer
// type-checks it without either (tsconfig.web.json).

export type PlatformName = 'linux' | 'win32' | 'darwin';

/** How a process holds a path. `mmap` is Linux's mapped file; `module` a DLL/EXE image on Windows. */
export type HolderKind = 'file' | 'dir' | 'cwd' | 'root' | 'exe' | 'mmap' | 'module';

export const HOLDER_KINDS: readonly HolderKind[] = ['file', 'dir', 'cwd', 'root', 'exe', 'mmap', 'module'];

/** A process as seen when first met. Identity is (pid, startedAtMs): pids are reused. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Process creation time, milliseconds since the Unix epoch. */
  startedAtMs: number;
  name: string;
  /** Image path, or null when it cannot be read (kernel threads, access denied). */
  exe: string | null;
  commandLine: string;
  /** User name where it can be resolved, else the numeric id or SID as text; null when unknown. */
  user: string | null;
}

/** One process holding one path under a watched directory. */
export interface Holder {
  pid: number;
  ppid: number;
  /** With pid, the process identity (pids are reused). */
  processStartedAtMs: number;
  processName: string;
  commandLine: string;
  user: string | null;
  kind: HolderKind;
  /** Absolute display path (DOS form on Windows). */
  path: string;
  /** The path was unlinked while open (Linux `(deleted)`, Windows delete-pending). */
  deleted: boolean;
  /** The handle itself: `fd 7` on Linux, `0x1a4` on Windows, null for cwd/root/exe/mmap/module rows. */
  handle: string | null;
  /** Which watched directory this path is under (its display form), for multi-dir watches. */
  watchedDir: string;
  /**
   * How the handle was opened, where the backend reads it during the scan (rows with a handle).
   * Linux scans give the access mode only (O_RDONLY...); getProcessDetails reads the full flags.
   */
  access?: HandleAccess;
}

/** What a handle may do to its file: Windows DELETE access counts as `delete`. */
export type AccessRight = 'read' | 'write' | 'delete';

/** How a handle was opened, as the OS records it. */
export interface HandleAccess {
  /**
   * Read, write, delete, in that order, as share checks count them (Windows execute/traverse is read);
   * empty for a handle that only names the file (Linux O_PATH, Windows attributes-only access).
   */
  rights: AccessRight[];
  /** The OS's own words: `O_WRONLY | O_APPEND | O_CLOEXEC` (Linux), `FILE_GENERIC_READ | DELETE` (Windows). */
  flags: string;
  /** The raw value: fdinfo's octal `flags:` (`02100001`), GrantedAccess in hex (`0x0012019f`). */
  raw: string;
}

export interface DeniedProcess {
  pid: number;
  name: string;
  /** Short reason, e.g. `EACCES reading /proc/1234/fd`. */
  reason: string;
}

/** Handles that exist but could not be named in time (a stalled query on Windows). Never dropped silently. */
export interface UnnamedHandles {
  pid: number;
  name: string;
  count: number;
  reason: string;
}

export interface ScanStats {
  processes: number;
  handles: number;
  ms: number;
}

/** `holdwatch scan --json` prints exactly this. */
export interface Snapshot {
  dir: string;
  platform: PlatformName;
  /** ISO 8601. */
  scannedAt: string;
  holders: Holder[];
  denied: DeniedProcess[];
  unnamed?: UnnamedHandles[];
  stats: ScanStats;
}

/** `holdwatch watch --json` prints one of these per line. */
export interface WatchEvent {
  type: 'appeared' | 'gone';
  /** ISO 8601. */
  at: string;
  holder: Holder;
}

/**
 * The service every front end speaks (CLI in-process, Electron over IPC, `holdwatch ui` over WebSocket).
 * Each method's request and result, and each event's payload, has a schema in core/api-contract.ts.
 */
export interface HoldwatchService {
  scan(request: ScanRequestDto): Promise<Snapshot>;
  startWatch(request: WatchRequestDto): Promise<{ watchId: string }>;
  stopWatch(watchId: string): Promise<void>;
  /** Subscribe to watch events; returns the unsubscribe function. */
  onWatchEvent(listener: (watchId: string, event: WatchEvent) => void): () => void;
  /** Runs a test command under holdwatch (what `holdwatch run` does), its output captured, not passed through. */
  startRun(request: RunRequestDto): Promise<{ runId: string }>;
  /** Ends a run's command (SIGTERM to it); the run still ends with its record. */
  stopRun(runId: string): Promise<void>;
  /** Process facts and ancestry for a pid; null when it is gone. */
  getProcessDetails(pid: number): Promise<ProcessDetails | null>;
  /** Ends a process, identified by (pid, start time); refuses holdwatch itself and system processes. */
  endProcess(request: EndProcessRequestDto): Promise<void>;
  /** The live stack of a process identified by (pid, start time): py-spy/gdb/eu-stack, or a minidump on Windows. */
  captureLiveStack(request: LiveStackRequestDto): Promise<CapturedLiveStack>;
  exportReport(request: ExportRequestDto): Promise<ExportedReport>;
  /** Shows the path in the host's file manager: its folder is opened, nothing is ever executed. */
  revealPath(path: string): Promise<void>;
  /** Directories watched before, most recent first. */
  listRecentDirs(): Promise<string[]>;
  /** The system temp dir: where most teardown failures happen. */
  defaultDir(): Promise<string>;
  onWatchStatus(listener: (watchId: string, status: WatchStatus) => void): () => void;
  /**
   * "Scan as administrator": restarts only this watch's scanner, as an elevated worker process (the
   * UI and the watch keep running). Resolves when it scans, or with the reason it does not (declined).
   */
  elevateScanner(watchId: string): Promise<ScannerStatus>;
  onRunEvent(listener: (runId: string, event: RunEvent) => void): () => void;
  /** Runs `holdwatch run` started in a terminal that are still going, newest first. */
  listActiveRuns(): Promise<ActiveRun[]>;
  /**
   * Follows one of them: its RunEvents arrive under its runId as for a run started here (the record
   * replayed first, then live). stopRun detaches; the terminal run is never signalled.
   */
  attachRun(runId: string): Promise<void>;
}

export interface ScanRequestDto {
  dirs: string[];
}

export interface WatchRequestDto {
  dirs: string[];
  /** Full-system scan period. */
  intervalMs?: number;
}

// ---- Runs (`holdwatch run`): the record a run leaves, as `--json` writes it and reports read it.

export type TestOutcome = 'passed' | 'failed' | 'skipped' | 'error';
export type TestPhase = 'setup' | 'call' | 'teardown';

export type TestEventType = 'run-start' | 'test-start' | 'phase' | 'test-end' | 'run-end';

/**
 * One moment of a run, as runner adapters and the bundled probes report it. A `phase` event without
 * `outcome` marks the phase starting; with `outcome`, the phase ending (pytest's setup/call/teardown).
 * `error` is a failure outside the test body (a fixture, a hook, a cleanup), the case holdwatch exists for.
 */
export interface TestEvent {
  type: TestEventType;
  /** The test's full name (`file::Class::test`, `pkg.TestX/sub`, `group > test`); the runner's for run-*. */
  name: string;
  phase?: TestPhase;
  outcome?: TestOutcome;
  /** Milliseconds since the Unix epoch: the runner's own timestamp where it gives one. */
  atMs: number;
  /** First line of the failure message, when the runner gives one. */
  detail?: string;
}

export interface TestRecord {
  name: string;
  /** ISO 8601. */
  startedAt: string;
  endedAt: string | null;
  outcome: TestOutcome | null;
  /** The phase that decided the outcome, where the runner says (a teardown failure says 'teardown'). */
  phase?: TestPhase;
  /** Outcome per phase where the runner reports them (pytest, bats formatter). */
  phases?: Partial<Record<TestPhase, TestOutcome>>;
  /** When each phase ran, where the runner reports it (pytest's report start/stop); the HTML timeline draws them. */
  phaseTimes?: Partial<Record<TestPhase, { startedAt: string; endedAt: string }>>;
}

export interface AncestryEntry {
  pid: number;
  name: string;
  commandLine: string;
}

export type Verdict = 'blocked-cleanup' | 'leaked-past-test' | 'outside-run' | 'in-run';

export interface Attribution {
  /** Test during which the holding process was spawned; null when before any test or unknown. */
  spawnedDuring: string | null;
  /** Test during which this handle was first seen. */
  firstSeenDuring: string | null;
  verdict: Verdict;
  /** From the holder up to the run's command (or PID 1), as recorded when first seen. */
  ancestry: AncestryEntry[];
  /** ISO 8601 first and last time the handle was seen. */
  firstSeenAt: string;
  lastSeenAt: string;
  /** The code that opened it, where a probe recorded it (python, node), or why there is none. */
  openStack?: StackLookup;
  /** The code that started the holding process, where its parent was probed, or why there is none. */
  spawnStack?: StackLookup;
}

export interface AttributedHolder extends Holder {
  attribution: Attribution;
}

export interface FailureRecord {
  /** ISO 8601 moment the failure line was seen. */
  at: string;
  /** The output line that carried the failure. */
  text: string;
  /** The path the message names, when it names one. */
  path: string | null;
  /** e.g. 'sharing-violation', 'directory-not-empty'. */
  kind: string;
  /** OS error code where the message gives one (32, 145, 16, 39...). */
  code: number | null;
  test: string | null;
  /** What held the watched dirs in the scan taken at that moment. */
  holders: AttributedHolder[];
}

export interface LeftoverRecord {
  path: string;
  createdDuring: string | null;
}

export interface RunRecord {
  runId: string;
  command: string[];
  cwd: string;
  watched: string[];
  platform: PlatformName;
  exitCode: number | null;
  /** ISO 8601. */
  startedAt: string;
  endedAt: string | null;
  tests: TestRecord[];
  holders: AttributedHolder[];
  failures: FailureRecord[];
  leftovers: LeftoverRecord[];
  versions: { holdwatch: string; node: string; os: string };
}

// ---- Open-time and spawn-time stacks (probes/python, probes/node; matched in core/stacks).

/** One frame of a recorded stack, innermost first. `user` is false for the runtime's own library, installed packages. */
export interface StackFrame {
  file: string;
  line: number;
  column: number | null;
  function: string | null;
  user: boolean;
}

/** The call that opened a holder's file (`open`, `connect`) or started its process (`spawn`), as a probe recorded it. */
export interface OpenStack {
  kind: 'open' | 'connect' | 'spawn';
  runtime: 'python' | 'node';
  /** The process that made the call (for a spawn: the parent). */
  pid: number;
  /** Milliseconds since the Unix epoch, taken by the probe at the call. */
  atMs: number;
  /** The API called: `open`, `os.open`, `fs.createWriteStream`, `subprocess.Popen`... */
  api: string;
  /** The path opened, absolute as the probe saw it; null for a spawn. */
  path: string | null;
  fd: number | null;
  /** A spawn's command line and started child, when the probe knew its pid. */
  argv: string[] | null;
  childPid: number | null;
  frames: StackFrame[];
}

/** What a lookup found: the stack and how it was matched, or why there is none. */
export type StackLookup =
  | {
      found: true;
      stack: OpenStack;
      /** How the record was paired with the holder or process. */
      matchedBy: 'fd' | 'path' | 'child-pid' | 'parent-argv' | 'fork';
      /** Set when the record belongs to an ancestor: an inherited fd, or the process that started a shell. */
      viaPid: number | null;
    }
  | { found: false; reason: string };
// ---- The service's requests, results and events beyond scan/watch (schemas in core/api-contract.ts).

export interface RunRequestDto {
  /** The test command, program first (no shell). */
  command: string[];
  /** Its working directory. */
  cwd: string;
  /** Directories to watch while it runs. */
  dirs: string[];
  /** Variables added to the host's environment for the command (`NAME=value cmd` in the UI). */
  env?: Record<string, string>;
}

export interface ProcessDetails {
  process: ProcessInfo;
  /** From the parent up to PID 1, as alive now (a reparented process shows its new parent). */
  ancestry: AncestryEntry[];
  /** Why holdwatch will not end it (itself, a system process); null when it may. */
  endRefusal: string | null;
  /** Its current directory; null when unreadable, with `cwdUnreadableReason` saying why. */
  cwd: string | null;
  cwdUnreadableReason: string | null;
  /** HOLDWATCH_RUN in its environment (the run that tagged it); null when absent or unreadable. */
  environmentTag: string | null;
  /** Live children now. */
  children: { pid: number; name: string; startedAtMs: number }[];
  /** Every handle it has open (Linux: fds; Windows: all object types); null when unreadable. */
  handleCount: number | null;
  /** Its place in a run of this session; null when it belongs to none. */
  run: RunMembershipDto | null;
  /** What it holds under the watched dirs of this session (every watch and run), with access. */
  holdings: HoldingDetail[];
}

export interface RunMembershipDto {
  runId: string;
  /** The test it was spawned during (the runner's hint, else the test running at its start). */
  spawnedDuring: string | null;
  /** True when only its HOLDWATCH_RUN tag ties it to the run (its parent chain was already broken). */
  byTagOnly: boolean;
  /** From this process up to the run's command, as recorded when the run first saw it. */
  ancestry: AncestryEntry[];
}

/** One thing a process holds, as the details panel shows it. */
export interface HoldingDetail {
  kind: HolderKind;
  path: string;
  /** The watched dir it lies under (display form). */
  watchedDir: string;
  deleted: boolean;
  handle: string | null;
  /** null for rows without a handle (mmap, exe, module; cwd on Linux) or when it could not be read. */
  access: HandleAccess | null;
  /** Advisory locks on it held through this handle (Linux fdinfo `lock:` lines): `FLOCK ADVISORY WRITE`. */
  locks: string[];
  /** Windows share mode (`FILE_SHARE_READ`...); null when it cannot be known, and `shareUnknownReason` says why. */
  share: string[] | null;
  shareUnknownReason: string | null;
}

export interface EndProcessRequestDto {
  pid: number;
  /** The identity the user saw: a reused pid is refused, not killed. */
  startedAtMs: number;
}

export type ReportFormat = 'md' | 'json' | 'html';

export interface ExportRequestDto {
  runId: string;
  format: ReportFormat;
  redact: boolean;
}

export interface ExportedReport {
  fileName: string;
  mimeType: string;
  text: string;
}

/** A run `holdwatch run` started in a terminal, still going: the UI can attach to it. */
export interface ActiveRun {
  runId: string;
  command: string[];
  cwd: string;
  /** The watched directories, resolved (display form). */
  watched: string[];
  /** ISO 8601. */
  startedAt: string;
  /** The `holdwatch run` process (not the test command). */
  pid: number;
}

/** After each full scan of a watch: how the live view stands, for progress and honesty about gaps. */
export interface WatchStatus {
  /** Full scans done so far; 0 while the first (slowest) one runs. */
  scans: number;
  holders: number;
  denied: number;
  /** Set when the watch failed and stopped; a readable sentence with the next step. */
  error: string | null;
  /** Where this watch's scans run, and whether they can run elevated. */
  scanner?: ScannerStatus;
}

/** A watch's scanner: in the host, or in a separate worker process started elevated. */
export interface ScannerStatus {
  /** `starting`: the worker is being started (the consent prompt, node start-up); scans go on in the host meanwhile. */
  mode: 'in-process' | 'starting' | 'worker';
  /** The worker says it runs as administrator (root); false in the host and while starting. */
  elevated: boolean;
  /** "Scan as administrator" can be offered here (Windows, not already an administrator). */
  canElevate: boolean;
  /** When it cannot: the next step to see denied processes (e.g. `sudo holdwatch ui`); null when there is none to give. */
  hint: string | null;
  /** The last attempt's outcome (declined, failed, the worker stopped) as a sentence with the next step; null when none. */
  message: string | null;
}

/** A run started from a front end, as it happens. `record` is the whole record so far (throttled). */
export type RunEvent =
  | { type: 'started'; command: string[]; cwd: string; watched: string[] }
  | { type: 'test'; event: TestEvent }
  | { type: 'holder'; change: 'appeared' | 'gone'; at: string; holder: AttributedHolder }
  | { type: 'failure'; failure: FailureRecord }
  | { type: 'output'; stream: 'stdout' | 'stderr'; text: string }
  | { type: 'record'; record: RunRecord }
  | { type: 'ended'; exitCode: number | null; record: RunRecord | null; error: string | null };

// ---- Live stacks on demand (`holdwatch stack`, the details panel): parsed in core/live-stack.ts.

export type LiveStackTool = 'py-spy' | 'gdb' | 'eu-stack' | 'minidump';

export interface LiveStackFrame {
  function: string;
  file?: string;
  line?: number;
  /** The shared object or module the frame is in, when the tool names it. */
  module?: string;
}

export interface LiveStackThread {
  /** OS thread id (LWP on Linux, TID on Windows) where the tool gives it. */
  id: number;
  name?: string;
  /** Innermost first. Empty for a minidump: its frames are resolved by WinDbg/Visual Studio. */
  frames: LiveStackFrame[];
  /** Windows: the scheduler's view (Waiting, Running...) and why it waits. */
  state?: string;
  /** Windows: the thread's start address, hex. */
  startAddress?: string;
}

export interface LiveStack {
  kind: 'stack';
  pid: number;
  tool: LiveStackTool;
  threads: LiveStackThread[];
  /** The minidump written (Windows), to open in WinDbg or Visual Studio. */
  dumpPath?: string;
  /** A limit the user should know of, e.g. native frames only because py-spy is missing. */
  note?: string;
  /** What the tool printed, for a user who wants more than the parsed frames. */
  rawText: string;
}

export interface LiveStackUnavailable {
  kind: 'unavailable';
  pid: number;
  /** One line: what is missing (a tool, a privilege). */
  reason: string;
  /** One line: what to do about it. */
  nextStep: string;
  tool?: LiveStackTool;
}

export type LiveStackResult = LiveStack | LiveStackUnavailable;

export interface LiveStackRequestDto {
  pid: number;
  /** The identity the user saw: a reused pid is refused, not attached to. */
  startedAtMs: number;
}

/** What captureLiveStack answers: the stack with its text as `holdwatch stack` prints it, or what is missing. */
export type CapturedLiveStack = (LiveStack & { text: string }) | LiveStackUnavailable;

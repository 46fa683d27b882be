// HolderSource for Windows: the system handle table (ntdll), names from the killable worker,
// modules and PEB facts read here. Raw handles never leave this folder.
import { statSync } from 'node:fs';
import type { DeniedProcess, Holder, HolderKind, ProcessInfo, UnnamedHandles } from '../../core/api.js';
import { BadInputError } from '../../core/errors.js';
import { isUnder, type PathStyle } from '../../core/paths.js';
import { normalizeWindowsPath } from '../../core/windows-paths.js';
import type { HolderSource, ScanRequest, ScanResult, WatchDir } from '../../core/platform.js';
import { parseObjectName, type HandleEntry, type ProcessRow } from './handle-table.js';
import { closeHandle, finalPathName, openForQuery, openProcess, PROCESS_QUERY_LIMITED_INFORMATION, VOLUME_NAME_DOS } from './kernel32.js';
import { NativeMemory } from './koffi-loader.js';
import { handleKey, NameCache } from './name-cache.js';
import { DEFAULT_DEADLINES, NameWorkerClient, type Deadlines, type NameOutcome } from './name-worker-client.js';
import * as nt from './ntdll.js';
import { ProcessReader } from './process-reader.js';
import { SystemTables } from './system-tables.js';
import { NtStatusError, ntSuccess, Win32Error } from './win-errors.js';
import { fileTimeToUnixMs } from './win-types.js';
import { resolveInputPath } from './win32-path-input.js';
import { DosDevices, PathKeys } from './path-keys.js';

export interface Win32Options {
  deadlines?: Deadlines;
  /** Environment for the name worker (tests pass the stall hook here). */
  workerEnv?: NodeJS.ProcessEnv;
  /** How often a process's module list is re-read (default 2000 ms; 0 = every scan). */
  moduleRefreshMs?: number;
}

interface RawHolding {
  pid: number;
  kind: HolderKind;
  path: string;
  deleted: boolean;
  handle: bigint | null;
  watchedDir: string;
}

export class Win32HolderSource implements HolderSource {
  readonly platform = 'win32' as const;
  private readonly tables = new SystemTables();
  private readonly cache = new NameCache();
  private readonly reader = new ProcessReader();
  private readonly keys = new PathKeys(new DosDevices());
  private readonly worker: NameWorkerClient;
  private readonly moduleRefreshMs: number;

  constructor(options: Win32Options = {}) {
    this.moduleRefreshMs = options.moduleRefreshMs ?? 2000;
    this.worker = new NameWorkerClient(options.deadlines ?? DEFAULT_DEADLINES, options.workerEnv ?? process.env);
  }

  /** Handles sent to the worker by the last scan: 0 in a steady state (the bench prints it). */
  lastScanNamed = 0;

  /** Worker starts so far: a stall restarts it (tests and the bench read this). */
  get workerStarts(): number {
    return this.worker.starts;
  }

  async resolveWatchDir(input: string): Promise<WatchDir> {
    return resolveWin32WatchDir(input);
  }

  async scan(request: ScanRequest): Promise<ScanResult> {
    const processes = new Map(this.tables.processList().map((row) => [row.pid, row]));
    const live = new Map([...processes.values()].map((row) => [row.pid, row.createTime]));
    this.reader.prune(live);
    const denied = new Map<number, DeniedProcess>();
    const deny = (pid: number, reason: string) => denied.set(pid, { pid, name: processes.get(pid)?.imageName ?? '?', reason });
    const wanted = request.pids ? new Set(request.pids) : null;
    const entries = wanted ? this.restrictedHandles(wanted, processes, deny) : this.tables.fileHandles();

    const outcomes = await this.nameEntries(entries, processes);
    this.keys.begin();
    const dirs = request.dirs.map((dir) => ({ dir, key: this.keys.keyOf(dir.matchPrefix).key }));
    const holdings: RawHolding[] = [];
    const unnamed = new Map<number, UnnamedHandles>();
    entries.forEach((entry, i) => {
      const outcome = outcomes[i]!;
      if (outcome.kind === 'unnamed') {
        const row = unnamed.get(entry.pid) ?? { pid: entry.pid, name: processes.get(entry.pid)?.imageName ?? '?', count: 0, reason: outcome.reason };
        row.count++;
        unnamed.set(entry.pid, row);
        return;
      }
      const { name, directory, deletePending, error } = outcome.answer;
      if (error?.denied) deny(entry.pid, `${error.api}: access denied`);
      if (name === null) return;
      const named = this.keys.keyOf(name);
      for (const { dir, key } of dirs) {
        if (!isUnder(named.key, key, FOLDED_KEYS)) continue;
        holdings.push({ pid: entry.pid, kind: directory ? 'dir' : 'file', path: named.display, deleted: deletePending, handle: entry.handle, watchedDir: dir.display });
      }
    });
    this.collectModules(wanted, processes, dirs, holdings, deny);
    this.keys.sweep();
    const holders = this.enrich(holdings, processes, deny);
    return { holders, denied: [...denied.values()], unnamed: [...unnamed.values()], processCount: wanted ? wanted.size : processes.size, handleCount: entries.length };
  }

  async processInfo(pid: number): Promise<ProcessInfo | null> {
    const row = this.tables.processList().find((p) => p.pid === pid);
    if (!row) return null;
    let commandLine = '';
    let exe: string | null = null;
    try {
      const params = this.reader.parameters(pid, row.createTime);
      commandLine = params.commandLine;
      exe = params.imagePath || null;
    } catch {
      // Denied: the row's name and times are still facts worth returning.
    }
    return { pid, ppid: row.ppid, startedAtMs: fileTimeToUnixMs(row.createTime), name: row.imageName, exe, commandLine, user: this.safeUser(pid, row.createTime) };
  }

  async dispose(): Promise<void> {
    this.worker.dispose();
    this.reader.dispose();
    this.tables.dispose();
  }

  private restrictedHandles(wanted: Set<number>, processes: Map<number, ProcessRow>, deny: (pid: number, reason: string) => void): HandleEntry[] {
    const entries: HandleEntry[] = [];
    for (const pid of wanted) {
      if (!processes.has(pid)) continue;
      let handle;
      try {
        handle = openProcess(pid, PROCESS_QUERY_LIMITED_INFORMATION | 0x0040 /* DUP_HANDLE, required by class 51 */);
      } catch (error) {
        deny(pid, (error as Error).message);
        continue;
      }
      try {
        const own = this.tables.processFileHandles(handle, pid);
        if (own === null) return this.tables.fileHandles().filter((e) => wanted.has(e.pid));
        entries.push(...own);
      } catch (error) {
        deny(pid, (error as Error).message);
      } finally {
        closeHandle(handle);
      }
    }
    return entries;
  }

  /** Names from the cache, the rest from the worker; the cache keeps only this scan's handles. */
  private async nameEntries(entries: readonly HandleEntry[], processes: Map<number, ProcessRow>): Promise<NameOutcome[]> {
    const keys = entries.map((e) => handleKey(e, processes.get(e.pid)?.createTime ?? 0n));
    const outcomes: (NameOutcome | undefined)[] = keys.map((k) => this.cache.get(k));
    const missing = outcomes.flatMap((o, i) => (o === undefined ? [i] : []));
    this.lastScanNamed = missing.length;
    if (missing.length > 0) {
      const live = [...processes.values()].map((p) => ({ pid: p.pid, createTime: String(p.createTime) }));
      const answers = await this.worker.nameAll(missing.map((i) => ({ pid: entries[i]!.pid, handle: String(entries[i]!.handle) })), live);
      missing.forEach((entryIndex, j) => (outcomes[entryIndex] = answers[j]));
    }
    // A handle that stalled once stays unnamed (asking again would hang again); other
    // failures (a process that was exiting) are asked again next time.
    const next = new Map<string, NameOutcome>();
    outcomes.forEach((o, i) => {
      if (o && (o.kind === 'unnamed' || !o.answer.error)) next.set(keys[i]!, o);
    });
    this.cache.replace(next);
    return outcomes as NameOutcome[];
  }

  /** `exe` (the main image) and `module` (DLLs) mapped from under a watched dir. */
  private collectModules(wanted: Set<number> | null, processes: Map<number, ProcessRow>, dirs: readonly { dir: WatchDir; key: string }[], holdings: RawHolding[], deny: (pid: number, reason: string) => void): void {
    for (const row of processes.values()) {
      if (row.pid === 0 || (wanted && !wanted.has(row.pid))) continue;
      let modules: string[];
      try {
        modules = this.reader.modules(row.pid, row.createTime, this.moduleRefreshMs);
      } catch (error) {
        if (error instanceof Win32Error && error.errorCode === 5) deny(row.pid, `${error.api}: access denied`);
        continue;
      }
      modules.forEach((file, index) => {
        const named = this.keys.keyOf(file);
        for (const { dir, key } of dirs) {
          if (!isUnder(named.key, key, FOLDED_KEYS)) continue;
          holdings.push({ pid: row.pid, kind: index === 0 ? 'exe' : 'module', path: named.display, deleted: false, handle: null, watchedDir: dir.display });
        }
      });
    }
  }

  private enrich(holdings: RawHolding[], processes: Map<number, ProcessRow>, deny: (pid: number, reason: string) => void): Holder[] {
    const cwdHandles = new Map<number, bigint | null>();
    const holders: Holder[] = [];
    for (const raw of holdings) {
      const row = processes.get(raw.pid);
      if (!row) continue;
      let commandLine = '';
      try {
        commandLine = this.reader.commandLine(raw.pid, row.createTime);
        // A process's current directory is an open handle (PEB CurrentDirectory.Handle): that
        // handle is why rmdir fails, so it is reported as `cwd`, not as a plain `dir`.
        if (!cwdHandles.has(raw.pid)) cwdHandles.set(raw.pid, this.reader.parameters(raw.pid, row.createTime).currentDirectoryHandle);
      } catch (error) {
        if (error instanceof Win32Error && error.errorCode === 5) deny(raw.pid, `${error.api}: access denied`);
      }
      const kind = raw.kind === 'dir' && raw.handle !== null && cwdHandles.get(raw.pid) === raw.handle ? 'cwd' : raw.kind;
      holders.push({
        pid: raw.pid,
        ppid: row.ppid,
        processStartedAtMs: fileTimeToUnixMs(row.createTime),
        processName: row.imageName,
        commandLine,
        user: this.safeUser(raw.pid, row.createTime),
        kind,
        path: raw.path,
        deleted: raw.deleted,
        handle: raw.handle === null ? null : `0x${raw.handle.toString(16)}`,
        watchedDir: raw.watchedDir,
      });
    }
    return holders;
  }

  private safeUser(pid: number, createTime: bigint): string | null {
    try {
      return this.reader.user(pid, createTime);
    } catch {
      return null;
    }
  }
}

/** Match keys are already case-folded (core/windows-paths foldWindowsCase): compare them exactly. */
const FOLDED_KEYS: PathStyle = { sep: '\\', caseInsensitive: false };

/**
 * The watched directory's kernel name, the form handle names come in (`\Device\HarddiskVolume3\x`
 * on Windows, `\??\Z:\x` under Wine): opened with FILE_FLAG_BACKUP_SEMANTICS and full sharing,
 * named, closed. Every input form (`C:/x`, `\\?\C:\x`, 8.3 aliases, MSYS `/c/x`) lands on one name.
 */
export function resolveWin32WatchDir(input: string, cwd = process.cwd()): WatchDir {
  if (input.trim() === '') throw new BadInputError('no directory given (an empty path)');
  // core/windows-paths throws BadInputError for what Win32 cannot spell (quotes, `<>|`, a NUL).
  const path = resolveInputPath(input, cwd);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BadInputError(code === 'ENOENT' ? `no such directory: ${input}` : `cannot open directory: ${input} (${code ?? String(error)})`);
  }
  if (!isDir) throw new BadInputError(`not a directory: ${input}`);
  let handle;
  try {
    handle = openForQuery(path);
  } catch (error) {
    throw new BadInputError(`cannot open directory: ${input} (${(error as Error).message})`);
  }
  const memory = new NativeMemory(8 * 1024);
  try {
    // Our own directory handle, not a pipe: this name query cannot hang, so it runs in-process.
    const result = nt.ntQueryObject(handle, nt.ObjectNameInformation, memory);
    if (!ntSuccess(result.status)) throw new NtStatusError('NtQueryObject(ObjectNameInformation)', result.status);
    const kernel = parseObjectName(memory.read(), memory.address);
    if (!kernel) throw new BadInputError(`cannot name directory: ${input}`);
    // GetFinalPathNameByHandleW gives the on-disk case and long names: the best form to show.
    const display = normalizeWindowsPath(finalPathName(handle, VOLUME_NAME_DOS));
    return { input, display, matchPrefix: kernel.replace(/\\$/, ''), caseInsensitive: true };
  } finally {
    memory.free();
    closeHandle(handle);
  }
}

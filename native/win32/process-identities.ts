// Who each pid in the handle table is, without the whole process list on every poll.
// Windows (and Wine: server/process.c frees the id in process_destroy) gives a pid back only when
// the process object is destroyed, and an open handle keeps the object alive. So holding one
// PROCESS_QUERY_LIMITED_INFORMATION handle per process makes "same pid as last poll" mean "same
// process": a new pid costs one OpenProcess and three queries, a known pid costs nothing, and the
// handle is closed as soon as the pid leaves the table (the process exited: it holds no handles).
import { parseBasicInformation, PROCESS_BASIC_INFORMATION_BYTES } from './peb-layout.js';
import { closeHandle, openProcess, PROCESS_QUERY_LIMITED_INFORMATION, processCreationTime, processImageName, SYNCHRONIZE } from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import * as nt from './ntdll.js';
import { isStarting } from './starting-process.js';
import { NtStatusError, ntSuccess } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';

export interface ProcessIdentity {
  pid: number;
  /** FILETIME ticks; with pid the identity. 0n when the process could not be opened. */
  createTime: bigint;
  ppid: number;
  /** `node.exe`; '' until known. */
  imageName: string;
  /** Why even PROCESS_QUERY_LIMITED_INFORMATION was refused; null when the process is held. */
  denied: string | null;
  /** Its PS_PROTECTION byte (protection.ts); null when it could not be read. */
  protection: number | null;
}

export interface OpenedProcess {
  handle: ProcessHandle;
  createTime: bigint;
  ppid: number;
  /** Full image path; '' when the process has none we may read (System). */
  imagePath: string;
  /** PS_PROTECTION, where the OS answers class 61; null elsewhere. */
  protection: number | null;
}

export interface IdentityOs {
  /** Throws (Win32Error) when the process cannot be opened. */
  open(pid: number): OpenedProcess;
  close(handle: ProcessHandle): void;
  /** The whole process list: only for facts a handle could not give (names of denied processes). */
  list(): { pid: number; ppid: number; createTime: bigint; imageName: string }[];
}

interface Held extends ProcessIdentity {
  handle: ProcessHandle | null;
  /** When opening was last refused (denied pids are retried, not on every poll). */
  deniedAtMs: number;
}

export class ProcessIdentities {
  private readonly held = new Map<number, Held>();
  /** Bumped when a process is added or dropped: per-process caches elsewhere prune only then. */
  version = 0;
  /** The last sync met a process still starting: sync again at the next poll, not in seconds. */
  startingSeen = false;

  constructor(
    private readonly os: IdentityOs,
    private readonly now: () => number = () => performance.now(),
    private readonly deniedRetryMs = 5000,
  ) {}

  /**
   * `pids` are the processes seen in this scan. With `complete` (the system-wide table) every held
   * pid not seen has exited and is dropped; a restricted scan drops nothing it did not look at.
   */
  sync(pids: Iterable<number>, complete: boolean): void {
    this.startingSeen = false;
    const seen = new Set<number>();
    let unnamed = false;
    for (const pid of pids) {
      if (seen.has(pid)) continue;
      seen.add(pid);
      const known = this.held.get(pid);
      if (known && (known.handle !== null || this.now() - known.deniedAtMs < this.deniedRetryMs)) continue;
      if (known) this.drop(pid);
      const identity = this.open(pid);
      // Not started yet (starting-process.ts): no identity this poll, so its handles wait for the next.
      if (isStarting(identity.createTime)) {
        this.drop(pid);
        this.startingSeen = true;
        continue;
      }
      if (identity.imageName === '') unnamed = true;
    }
    if (complete) for (const pid of [...this.held.keys()]) if (!seen.has(pid)) this.drop(pid);
    if (unnamed) this.fillFromList();
  }

  /** Drops pids a restricted scan found no handles for (exited, or never ours to see). */
  forget(pids: Iterable<number>): void {
    for (const pid of pids) this.drop(pid);
  }

  get(pid: number): ProcessIdentity | undefined {
    return this.held.get(pid);
  }

  values(): IterableIterator<ProcessIdentity> {
    return this.held.values();
  }

  get size(): number {
    return this.held.size;
  }

  dispose(): void {
    for (const pid of [...this.held.keys()]) this.drop(pid);
  }

  private open(pid: number): Held {
    let identity: Held;
    try {
      const opened = this.os.open(pid);
      identity = {
        pid,
        createTime: opened.createTime,
        ppid: opened.ppid,
        imageName: baseName(opened.imagePath),
        denied: null,
        protection: opened.protection,
        handle: opened.handle,
        deniedAtMs: 0,
      };
    } catch (error) {
      identity = { pid, createTime: 0n, ppid: 0, imageName: '', denied: (error as Error).message, protection: null, handle: null, deniedAtMs: this.now() };
    }
    this.held.set(pid, identity);
    this.version++;
    return identity;
  }

  private drop(pid: number): void {
    const identity = this.held.get(pid);
    if (!identity) return;
    this.held.delete(pid);
    this.version++;
    if (identity.handle !== null) this.os.close(identity.handle);
  }

  /** Names (and, for denied pids, times and parents) from one process list: rare, never per poll. */
  private fillFromList(): void {
    let rows;
    try {
      rows = this.os.list();
    } catch {
      return;
    }
    for (const row of rows) {
      const identity = this.held.get(row.pid);
      if (!identity || identity.imageName !== '') continue;
      identity.imageName = row.imageName || (row.pid === 4 ? 'System' : '?');
      if (identity.handle === null) {
        identity.createTime = row.createTime;
        identity.ppid = row.ppid;
      }
    }
    for (const identity of this.held.values()) if (identity.imageName === '') identity.imageName = '?';
  }
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('\\') + 1);
}

/** The real IdentityOs: OpenProcess(QUERY_LIMITED | SYNCHRONIZE) and what that handle may ask. */
export function windowsIdentityOs(list: IdentityOs['list']): IdentityOs {
  return {
    open(pid) {
      const handle = openProcess(pid, PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE);
      try {
        const createTime = processCreationTime(handle);
        const ppid = parentPid(handle);
        let imagePath = '';
        try {
          imagePath = processImageName(handle);
        } catch {
          // System and minimal processes have no image path: the process list names them.
        }
        return { handle, createTime, ppid, imagePath, protection: protectionLevel(handle) };
      } catch (error) {
        closeHandle(handle);
        throw error;
      }
    },
    close: closeHandle,
    list,
  };
}

/** The PS_PROTECTION byte (class 61); null where the OS has no such class (Wine) or refuses it. */
export function protectionLevel(process: ProcessHandle): number | null {
  const memory = new NativeMemory(8);
  try {
    const result = nt.ntQueryInformationProcess(process, nt.ProcessProtectionInformation, memory);
    return ntSuccess(result.status) ? (memory.read()[0] ?? null) : null;
  } finally {
    memory.free();
  }
}

/** InheritedFromUniqueProcessId: the parent at creation (it may have exited or its pid be reused since). */
export function parentPid(process: ProcessHandle): number {
  const basic = new NativeMemory(PROCESS_BASIC_INFORMATION_BYTES);
  try {
    const result = nt.ntQueryInformationProcess(process, nt.ProcessBasicInformation, basic);
    if (!ntSuccess(result.status)) throw new NtStatusError('NtQueryInformationProcess(ProcessBasicInformation)', result.status);
    return parseBasicInformation(basic.read()).ppid;
  } finally {
    basic.free();
  }
}

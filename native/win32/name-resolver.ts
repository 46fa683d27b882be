// Worker side: names a remote handle by duplicating it into this process. Runs only inside the
// disposable name worker, because NtQueryObject(ObjectNameInformation) and NtQueryInformationFile
// can block forever on a synchronous pipe with a pending read; the app kills us when that happens.
import { isDiskName } from './disk-names.js';
import { parseObjectName } from './handle-table.js';
import { closeHandle, duplicateHandle, openProcess, PROCESS_DUP_HANDLE, processCreationTime } from './kernel32.js';
import { NativeMemory } from './koffi-loader.js';
import * as nt from './ntdll.js';
import { ERROR_ACCESS_DENIED, NtStatusError, ntSuccess, STATUS_ACCESS_DENIED, Win32Error } from './win-errors.js';
import type { FileHandle, ProcessHandle, RemoteHandleValue } from './win-types.js';

export interface NameAnswer {
  name: string | null;
  directory: boolean;
  deletePending: boolean;
}

export class NameResolver {
  /** One PROCESS_DUP_HANDLE handle per live process, keyed by pid, checked against create time. */
  private readonly owners = new Map<number, { handle: ProcessHandle; createTime: bigint }>();
  private readonly nameMemory = new NativeMemory(8 * 1024);

  constructor(private readonly onNamed: (name: string) => void = () => {}) {}

  resolve(pid: number, value: RemoteHandleValue): NameAnswer {
    const owner = this.owner(pid);
    const dup: FileHandle = duplicateHandle(owner, value);
    try {
      const result = nt.ntQueryObject(dup, nt.ObjectNameInformation, this.nameMemory);
      if (!ntSuccess(result.status)) throw new NtStatusError('NtQueryObject(ObjectNameInformation)', result.status);
      const name = parseObjectName(this.nameMemory.read(Math.min(result.returnLength || this.nameMemory.size, this.nameMemory.size)), this.nameMemory.address);
      if (name === null || name === '') return { name: null, directory: false, deletePending: false };
      this.onNamed(name);
      if (!isDiskName(name)) return { name, directory: false, deletePending: false };
      const standard = nt.ntQueryStandardInformation(dup);
      return ntSuccess(standard.status)
        ? { name, directory: standard.directory, deletePending: standard.deletePending }
        : { name, directory: false, deletePending: false };
    } finally {
      closeHandle(dup);
    }
  }

  /** Closes cached process handles of processes that exited or whose pid was reused. */
  prune(live: ReadonlyMap<number, bigint>): void {
    for (const [pid, owner] of this.owners) {
      if (live.get(pid) === owner.createTime) continue;
      this.owners.delete(pid);
      closeHandle(owner.handle);
    }
  }

  dispose(): void {
    for (const owner of this.owners.values()) closeHandle(owner.handle);
    this.owners.clear();
    this.nameMemory.free();
  }

  private owner(pid: number): ProcessHandle {
    const cached = this.owners.get(pid);
    if (cached) return cached.handle;
    const handle = openProcess(pid, PROCESS_DUP_HANDLE | 0x1000 /* QUERY_LIMITED, for GetProcessTimes */);
    let createTime = 0n;
    try {
      createTime = processCreationTime(handle);
    } catch {
      // Times are only used to notice pid reuse; a process that hides them is still worth naming.
    }
    this.owners.set(pid, { handle, createTime });
    return handle;
  }
}

export function isDenied(error: unknown): boolean {
  return (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) || (error instanceof NtStatusError && error.status === STATUS_ACCESS_DENIED);
}

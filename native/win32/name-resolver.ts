// Worker side: names a remote handle by duplicating it into this process. Runs only inside the
// disposable name worker, because NtQueryObject(ObjectNameInformation) and NtQueryInformationFile
// can block forever on a synchronous pipe with a pending read: each runs on a pool thread with a
// deadline (bounded-call.ts), and the app replaces the worker only when hung calls hold its threads.
import type { Bounded, BoundedCalls } from './bounded-call.js';
import { isDiskName } from './disk-names.js';
import { isTooSmall } from './grow-query.js';
import { parseObjectName } from './handle-table.js';
import { closeHandle, duplicateHandle, openProcess, PROCESS_DUP_HANDLE, processCreationTime } from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import * as nt from './ntdll.js';
import { ERROR_ACCESS_DENIED, ERROR_INVALID_PARAMETER, NtStatusError, ntSuccess, STATUS_ACCESS_DENIED, Win32Error } from './win-errors.js';
import type { FileHandle, ProcessHandle, RemoteHandleValue } from './win-types.js';

export interface NameAnswer {
  name: string | null;
  /**
   * The rights of the copy (DUPLICATE_SAME_ACCESS: those of the handle the value named when it was
   * duplicated); absent when they could not be read.
   */
  access?: number;
  directory: boolean;
  deletePending: boolean;
  /** The name query passed its deadline (it hangs, or is very slow): no name. */
  stalled?: boolean;
  /** Named; the second query passed its deadline: directory and delete-pending are not known. */
  infoStalled?: boolean;
}

/**
 * A hook between the name query and the answer, inside the deadline: the Wine tests hang a pool thread
 * there, as a pipe's name query would. Resolves when the answer may go on.
 */
export type AfterName = (name: string) => Promise<void> | void;

/** OBJECT_NAME_INFORMATION for the names most handles have: a 16-byte UNICODE_STRING, then ~4,000 WCHARs. */
const NAME_BYTES = 8 * 1024;
/** Room for the longest name a UNICODE_STRING holds (65,534 bytes: 32,767 WCHARs, `\\?\` paths reach it). */
const LONGEST_NAME_BYTES = 16 + 0x10000;

export class NameResolver {
  /** One PROCESS_DUP_HANDLE handle per process of the batch being asked, keyed by pid, checked against create time. */
  private readonly owners = new Map<number, { handle: ProcessHandle; createTime: bigint }>();
  private live: ReadonlyMap<number, bigint> = new Map();

  constructor(
    private readonly calls: BoundedCalls,
    private readonly afterName: AfterName = () => {},
    /** The first query's buffer (a Wine test gives one too small for any name: Wine cannot open a path that needs more). */
    private readonly nameBytes = NAME_BYTES,
  ) {}

  /** Hung calls hold all threads but one: the app must start another worker. */
  get exhausted(): boolean {
    return this.calls.exhausted;
  }

  /** How many handles may be asked at once: the threads hung calls do not hold, at most 8. */
  get window(): number {
    return this.calls.free;
  }

  async resolve(pid: number, value: RemoteHandleValue): Promise<NameAnswer> {
    const owner = this.owner(pid);
    const dup: FileHandle = duplicateHandle(owner, value);
    try {
      const access = grantedAccessOf(dup);
      const answer = await this.answerFor(dup);
      return access === undefined ? answer : { ...answer, access };
    } finally {
      // Closed even while a hung call uses it: the call holds the object itself, and closing one of
      // its handles (not the last: the owner keeps its own) never blocks.
      closeHandle(dup);
    }
  }

  private async answerFor(dup: FileHandle): Promise<NameAnswer> {
    const named = await this.queryName(dup);
    if (named === 'stalled') return { name: null, directory: false, deletePending: false, stalled: true };
    const { status, name } = named.value;
    if (!ntSuccess(status)) throw new NtStatusError('NtQueryObject(ObjectNameInformation)', status);
    if (name === null || name === '') return { name: null, directory: false, deletePending: false };
    if (!isDiskName(name)) return { name, directory: false, deletePending: false };
    const standard = await this.queryStandard(dup);
    if (standard === 'stalled') return { name, directory: false, deletePending: false, infoStalled: true };
    return standard.value ? { name, ...standard.value } : { name, directory: false, deletePending: false };
  }

  /** The name, asked again with room for the longest there is when the first buffer was too small. */
  private async queryName(dup: FileHandle): Promise<Bounded<{ status: number; name: string | null }>> {
    const first = await this.queryNameInto(dup, this.nameBytes);
    if (first === 'stalled' || !isTooSmall(first.value.status)) return first;
    return this.queryNameInto(dup, LONGEST_NAME_BYTES);
  }

  private queryNameInto(dup: FileHandle, bytes: number): Promise<Bounded<{ status: number; name: string | null }>> {
    const memory = new NativeMemory(bytes);
    return this.calls.run<{ status: number; name: string | null }>(
      (done) =>
        nt.ntQueryObjectOnThread(dup, nt.ObjectNameInformation, memory, (status) => {
          if (!ntSuccess(status)) return done({ status, name: null });
          const name = parseObjectName(memory.read(), memory.address);
          if (name === null || name === '') return done({ status, name });
          const answer = () => done({ status, name });
          void Promise.resolve(this.afterName(name)).then(answer, answer);
        }),
      () => memory.free(),
    );
  }

  private queryStandard(dup: FileHandle): Promise<Bounded<{ directory: boolean; deletePending: boolean } | null>> {
    const memory = new NativeMemory(16 + 24);
    return this.calls.run<{ directory: boolean; deletePending: boolean } | null>(
      (done) => nt.ntQueryStandardInformationOnThread(dup, memory, (status) => done(ntSuccess(status) ? nt.parseStandardInformation(memory.read()) : null)),
      () => memory.free(),
    );
  }

  /** The processes the app saw alive when it made the batch, by pid: their create times. */
  beginBatch(live: ReadonlyMap<number, bigint>): void {
    this.live = live;
  }

  /**
   * Closes every process handle, at the end of each batch: one kept while the app asks nothing more
   * would keep an exited test process's object, and with it its image file, past the query.
   */
  releaseProcesses(): void {
    for (const owner of this.owners.values()) closeHandle(owner.handle);
    this.owners.clear();
  }

  dispose(): void {
    this.releaseProcesses();
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
    const expected = this.live.get(pid);
    if (expected !== undefined && createTime !== 0n && createTime !== expected) {
      // The pid was reused since the app read the table: this handle value is another process's.
      closeHandle(handle);
      throw new Win32Error('OpenProcess', ERROR_INVALID_PARAMETER);
    }
    this.owners.set(pid, { handle, createTime });
    return handle;
  }
}

/**
 * The copy's rights, asked on this thread: ObjectBasicInformation reads the handle table entry and
 * never reaches the file system, so unlike the name query it cannot hang on a pipe.
 */
function grantedAccessOf(dup: FileHandle): number | undefined {
  const memory = new NativeMemory(nt.OBJECT_BASIC_INFORMATION_BYTES);
  try {
    return ntSuccess(nt.ntQueryObject(dup, nt.ObjectBasicInformation, memory).status) ? nt.parseGrantedAccess(memory.read()) : undefined;
  } finally {
    memory.free();
  }
}

export function isDenied(error: unknown): boolean {
  return (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) || (error instanceof NtStatusError && error.status === STATUS_ACCESS_DENIED);
}

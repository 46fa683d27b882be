// System-wide facts from ntdll: the process list (class 5), the handle table (class 64), the
// "File" type index (ObjectTypesInformation, once), and one process's handles (class 51).
import { snapshotTable, type TableSnapshot } from './file-rows.js';
import { GrowingQuery, ReusedBuffer } from './grow-query.js';
import {
  countProcessHandles,
  parseObjectTypes,
  parseProcessHandleTable,
  parseProcessList,
  parseSystemHandleTable,
  type HandleEntry,
  type ProcessRow,
} from './handle-table.js';
import { closeHandle, openForQuery } from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import * as nt from './ntdll.js';
import { NtStatusError, STATUS_INVALID_INFO_CLASS } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';

const allocate = (size: number) => new NativeMemory(size);

export class SystemTables {
  // The handle table holds no pointers into itself: it is read straight into a reused Buffer. Two, taken
  // in turn by snapshot(): a poll compares its snapshot with the one before, which must stay as it was.
  private readonly handleReads = [0, 1].map(
    () => new GrowingQuery('NtQuerySystemInformation(SystemExtendedHandleInformation)', (size) => new ReusedBuffer(size), 1024 * 1024),
  );
  private nextRead = 0;
  /** The last snapshot: its buffer is the one the next snapshot does not read into. */
  private lastSnapshot: TableSnapshot | undefined;
  private reads = 0;
  /** Reads of the system handle table so far (Win32ScanStats: what a scan or a details request costs). */
  handleTableReads = 0;
  private readonly processes = new GrowingQuery('NtQuerySystemInformation(SystemProcessInformation)', allocate, 256 * 1024);
  private fileTypeIndex: number | undefined;
  private perProcessUnsupported = false;

  /**
   * The "File" object type's index in handle tables; resolved once (it is fixed per boot).
   * ObjectTypesInformation names it, and a handle we open ourselves confirms it: Wine 8 numbers
   * handle-table types two lower than its own ObjectTypesInformation, so the probe wins.
   */
  fileType(): number {
    if (this.fileTypeIndex !== undefined) return this.fileTypeIndex;
    const listed = this.listedFileType();
    const probed = this.probeFileType();
    this.fileTypeIndex = probed ?? listed;
    if (this.fileTypeIndex === undefined) throw new Error('cannot tell the "File" object type index');
    return this.fileTypeIndex;
  }

  private listedFileType(): number | undefined {
    const query = new GrowingQuery('NtQueryObject(ObjectTypesInformation)', allocate, 64 * 1024);
    try {
      const { bytes, memory } = query.run((memory) => nt.ntQueryObject(0n, nt.ObjectTypesInformation, memory));
      return parseObjectTypes(bytes, memory.address).find((row) => row.name === 'File')?.typeIndex;
    } catch {
      return undefined;
    } finally {
      query.dispose();
    }
  }

  /** Opens our own executable, finds that handle in the system table, reads its type. */
  private probeFileType(): number | undefined {
    const file = openForQuery(process.execPath);
    try {
      const bytes = this.readHandleTable();
      return parseSystemHandleTable(bytes).find((e) => e.pid === process.pid && e.handle === BigInt(file))?.typeIndex;
    } finally {
      closeHandle(file);
    }
  }

  /** Every File handle of every process (the bare system-wide call the bench compares against). */
  fileHandles(): HandleEntry[] {
    const type = this.fileType();
    const bytes = this.readHandleTable();
    return parseSystemHandleTable(bytes, bytes.length, type);
  }

  /**
   * The steady-state poll's view of the same table (file-rows.ts), valid until the next-but-one snapshot;
   * its blocks are compared with the last snapshot's (`comparedWith`).
   */
  snapshot(): TableSnapshot {
    const type = this.fileType();
    const bytes = this.readHandleTable();
    this.nextRead = 1 - this.nextRead;
    this.lastSnapshot = snapshotTable(bytes, type, bytes.length, this.lastSnapshot, ++this.reads);
    return this.lastSnapshot;
  }

  /**
   * How many handles of any type `pid` has open, from the system table. Preferred over
   * GetProcessHandleCount: it needs no access to the process, and Wine 8 answers that call with 0.
   */
  handleCountOf(pid: number): number {
    const bytes = this.readHandleTable();
    return countProcessHandles(bytes, pid);
  }

  /** The bare call into the reused buffer a poll reads, nothing else: what the bench holds a poll against. */
  rawHandleTableBytes(): number {
    return this.readHandleTable().length;
  }

  processList(): ProcessRow[] {
    const { bytes, memory } = this.processes.run((memory) => nt.ntQuerySystemInformation(nt.SystemProcessInformation, memory));
    return parseProcessList(bytes, memory.address);
  }

  /**
   * One process's File handles: far cheaper than the system table when only a few processes matter.
   * Null when the OS lacks the class (before Windows 8, and Wine 8: STATUS_INVALID_INFO_CLASS);
   * the caller then filters the system table instead.
   */
  processFileHandles(process: ProcessHandle, pid: number): HandleEntry[] | null {
    if (this.perProcessUnsupported) return null;
    const type = this.fileType();
    const query = new GrowingQuery('NtQueryInformationProcess(ProcessHandleInformation)', allocate, 16 * 1024);
    try {
      const { bytes } = query.run((memory) => nt.ntQueryInformationProcess(process, nt.ProcessHandleInformation, memory));
      return parseProcessHandleTable(bytes, pid, bytes.length, type);
    } catch (error) {
      if (error instanceof NtStatusError && error.status === STATUS_INVALID_INFO_CLASS) {
        this.perProcessUnsupported = true;
        return null;
      }
      throw error;
    } finally {
      query.dispose();
    }
  }

  /** The system handle table's bytes, valid until the next read: read where the next snapshot goes, never over the last one. */
  private readHandleTable(): Buffer {
    this.handleTableReads++;
    const read = this.handleReads[this.nextRead]!;
    const { bytes } = read.run((memory) => nt.ntQuerySystemInformationInto(nt.SystemExtendedHandleInformation, memory.buffer));
    // The other buffer grows with this one (Buffer.alloc zero-fills it: its pages are in memory), so the
    // next poll reads into a buffer that fits and is warm, not one that is grown by a failed call first.
    this.handleReads[1 - this.nextRead]!.reserve(read.size);
    return bytes;
  }

  dispose(): void {
    for (const read of this.handleReads) read.dispose();
    this.processes.dispose();
  }
}

// ProcessSource for Windows: the tree from SystemProcessInformation (parent = the creator recorded
// at creation, InheritedFromUniqueProcessId), run tags from each process's environment block in
// its PEB. Every handle and buffer is opened and released within the call: this source has no
// dispose, so it holds nothing between calls.
import type { ProcessInfo } from '../../contract/holders.js';
import type { ProcessBrief, ProcessSource } from '../../core/platform.js';
import { findEnvironmentVariable } from './environment-block.js';
import { GrowingQuery } from './grow-query.js';
import { parseProcessList, type ProcessRow } from './handle-table.js';
import { closeHandle, openProcess, processCreationTime, processImageName, PROCESS_QUERY_LIMITED_INFORMATION, PROCESS_VM_READ } from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import * as nt from './ntdll.js';
import { ProcessReader, readEnvironmentBlock } from './process-reader.js';
import { isStarting } from './starting-process.js';
import { fileTimeToUnixMs } from './win-types.js';

export class Win32ProcessSource implements ProcessSource {
  /** The last list's size, so the next call allocates once instead of growing from small. */
  private listBytesHint = 256 * 1024;

  async listProcesses(): Promise<ProcessBrief[]> {
    return this.processRows().map((row) => ({ pid: row.pid, ppid: row.ppid, startedAtMs: fileTimeToUnixMs(row.createTime), name: row.imageName }));
  }

  async processInfo(pid: number): Promise<ProcessInfo | null> {
    const row = this.processRows().find((p) => p.pid === pid);
    if (!row) return null;
    const reader = new ProcessReader();
    try {
      return describeProcess(row, reader);
    } finally {
      reader.dispose();
    }
  }

  async readEnvironmentVariable(pid: number, name: string): Promise<string | null> {
    let handle;
    try {
      handle = openProcess(pid, PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_VM_READ);
    } catch {
      return null; // gone, or not ours to read
    }
    try {
      return findEnvironmentVariable(readEnvironmentBlock(handle), name);
    } catch {
      return null; // exited while being read, or a protected process
    } finally {
      closeHandle(handle);
    }
  }

  private processRows(): ProcessRow[] {
    const query = new GrowingQuery('NtQuerySystemInformation(SystemProcessInformation)', (size) => new NativeMemory(size), this.listBytesHint);
    try {
      const { bytes, memory } = query.run((memory) => nt.ntQuerySystemInformation(nt.SystemProcessInformation, memory));
      this.listBytesHint = Math.max(this.listBytesHint, bytes.length + 64 * 1024);
      return parseProcessList(bytes, memory.address).flatMap((row) => (isStarting(row.createTime) ? settledRow(row) : [row]));
    } finally {
      query.dispose();
    }
  }
}

/**
 * A row still carrying Wine's "not started" time (starting-process.ts): the process's own handle may
 * already know the real time and image; if it does not either, the process is left out until it does.
 */
function settledRow(row: ProcessRow): ProcessRow[] {
  let handle;
  try {
    handle = openProcess(row.pid, PROCESS_QUERY_LIMITED_INFORMATION);
  } catch {
    return [];
  }
  try {
    const createTime = processCreationTime(handle);
    if (isStarting(createTime)) return [];
    let imageName = row.imageName;
    try {
      imageName ||= processImageName(handle).replace(/^.*\\/, '');
    } catch {
      // no image path yet: keep the row's (possibly empty) name
    }
    return [{ ...row, createTime, imageName }];
  } catch {
    return [];
  } finally {
    closeHandle(handle);
  }
}

/** ProcessInfo from a process-list row and what the PEB says; denied processes keep the row's facts. */
export function describeProcess(row: ProcessRow, reader: ProcessReader): ProcessInfo {
  let commandLine = '';
  let exe: string | null = null;
  try {
    const params = reader.parameters(row.pid, row.createTime);
    commandLine = params.commandLine;
    exe = params.imagePath || null;
  } catch {
    // Denied or exiting: the row's name and times are still facts worth returning.
  }
  let user: string | null = null;
  try {
    user = reader.user(row.pid, row.createTime);
  } catch {
    // as above
  }
  return { pid: row.pid, ppid: row.ppid, startedAtMs: fileTimeToUnixMs(row.createTime), name: row.imageName, exe, commandLine, user };
}

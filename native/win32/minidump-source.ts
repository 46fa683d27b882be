// The live stack on Windows: a minidump written with MiniDumpWriteDump into holdwatch's data dir
// (for WinDbg or Visual Studio, which resolve frames with symbols) plus the thread list from
// SystemProcessInformation. Every handle opened here is closed before the call returns.
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BadInputError } from '../../core/errors.js';
import type { LiveStackResult } from '../../core/live-stack.js';
import type { LiveStackSource } from '../../core/platform.js';
import * as dbghelp from './dbghelp.js';
import { GrowingQuery } from './grow-query.js';
import { parseProcessList } from './handle-table.js';
import { sameProcessStart } from '../../core/same-process.js';
import {
  closeHandle,
  createFileForWrite,
  openProcess,
  processCreationTime,
  PROCESS_DUP_HANDLE,
  PROCESS_QUERY_INFORMATION,
  PROCESS_VM_READ,
} from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import { parseProcessThreads } from './minidump-threads.js';
import * as nt from './ntdll.js';
import { ERROR_ACCESS_DENIED, ERROR_INVALID_PARAMETER, Win32Error } from './win-errors.js';
import { fileTimeToUnixMs, type ProcessHandle } from './win-types.js';

// Thread stacks, handles, thread times and the memory map: a few MB, enough for WinDbg's `~*k`
// and `!handle`, without the full heap a "full dump" would copy.
const DUMP_TYPE =
  dbghelp.MiniDumpWithHandleData |
  dbghelp.MiniDumpWithThreadInfo |
  dbghelp.MiniDumpWithFullMemoryInfo |
  dbghelp.MiniDumpWithUnloadedModules |
  dbghelp.MiniDumpWithProcessThreadData |
  dbghelp.MiniDumpWithIndirectlyReferencedMemory;

export interface MinidumpSourceOptions {
  /** `<data dir>/dumps`; never inside a watched directory. */
  dumpsDir: string;
  now?: () => Date;
}

export class MinidumpSource implements LiveStackSource {
  constructor(private readonly options: MinidumpSourceOptions) {}

  async liveStack(pid: number, startedAtMs?: number): Promise<LiveStackResult> {
    if (!Number.isSafeInteger(pid) || pid <= 0) throw new BadInputError(`no process with pid ${pid}`);
    const { name, threads } = listThreads(pid);
    let process: ProcessHandle;
    try {
      process = openProcess(pid, PROCESS_QUERY_INFORMATION | PROCESS_VM_READ | PROCESS_DUP_HANDLE);
    } catch (error) {
      if (error instanceof Win32Error && error.errorCode === ERROR_INVALID_PARAMETER) throw new BadInputError(`process ${pid} exited`);
      if (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) {
        return {
          kind: 'unavailable',
          pid,
          tool: 'minidump',
          reason: `needs read and query access to pid ${pid} (${error.message})`,
          nextStep: 'run holdwatch as the same user, or elevated (Run as administrator) for other users and services; protected processes cannot be dumped',
        };
      }
      throw error;
    }
    try {
      // On the handle the dump is written through: a reused pid cannot slip in after this check.
      if (startedAtMs !== undefined && !sameProcessStart(startedAtMs, fileTimeToUnixMs(processCreationTime(process)), 'win32'))
        throw new BadInputError(`process ${pid} has already exited (its pid now belongs to another process)`);
      const path = this.writeDump(process, pid, name);
      const bytes = statSync(path).size;
      return {
        kind: 'stack',
        pid,
        tool: 'minidump',
        threads,
        dumpPath: path,
        note: 'open the dump in WinDbg (~*k) or Visual Studio for the frames of each thread',
        rawText: `MiniDumpWriteDump type 0x${DUMP_TYPE.toString(16)}: ${path} (${bytes} bytes, ${threads.length} threads)\n`,
      };
    } finally {
      closeHandle(process);
    }
  }

  private writeDump(process: ProcessHandle, pid: number, name: string): string {
    mkdirSync(this.options.dumpsDir, { recursive: true });
    const stamp = (this.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const path = join(this.options.dumpsDir, `${name.replace(/\.exe$/i, '').replace(/[^\w.-]+/g, '_') || 'process'}-${pid}-${stamp}.dmp`);
    const file = createFileForWrite(path);
    let written = false;
    try {
      dbghelp.beginSymbolSession(process);
      try {
        dbghelp.writeMiniDump(process, pid, file, DUMP_TYPE);
        written = true;
      } finally {
        dbghelp.endSymbolSession(process);
      }
    } finally {
      closeHandle(file);
      // A failed dump leaves a truncated file that WinDbg would misread: remove it.
      if (!written) rmSync(path, { force: true });
    }
    return path;
  }
}

/** The process's image name and threads; BadInputError when no process has this pid. */
function listThreads(pid: number): { name: string; threads: NonNullable<ReturnType<typeof parseProcessThreads>> } {
  const query = new GrowingQuery('NtQuerySystemInformation(SystemProcessInformation)', (size) => new NativeMemory(size), 256 * 1024);
  try {
    const { bytes, memory } = query.run((memory) => nt.ntQuerySystemInformation(nt.SystemProcessInformation, memory));
    const row = parseProcessList(bytes, memory.address).find((p) => p.pid === pid);
    const threads = parseProcessThreads(bytes, pid);
    if (!row || !threads) throw new BadInputError(`no process with pid ${pid}`);
    return { name: row.imageName, threads };
  } finally {
    query.dispose();
  }
}

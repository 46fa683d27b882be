// App side, per process: PEB strings (command line, image path, current directory and its handle),
// user, and loaded modules. None of these calls can hang (ReadProcessMemory fails fast), so they
// run here, not in the name worker. Process handles are cached per (pid, create time).
import { processUser } from './advapi32.js';
import { closeHandle, openProcess, PROCESS_QUERY_INFORMATION, PROCESS_VM_READ, readMemory, stillActive } from './kernel32.js';
import { NativeMemory } from '../koffi-loader.js';
import * as nt from './ntdll.js';
import { parseBasicInformation, PROCESS_BASIC_INFORMATION_BYTES } from './peb-layout.js';
import { readEnvironment, readParameters, type ProcessParameters, type RemoteProcessMemory } from './process-parameters.js';
import { listModules, moduleFileName } from './psapi.js';
import { readUnicodeStringIn } from './handle-table.js';
import { mappedFiles, MEMORY_BASIC_INFORMATION_BYTES, parseMemoryBasicInformation } from './mapped-views.js';
import { NtStatusError, ntSuccess } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';

export type { ProcessParameters } from './process-parameters.js';

interface Entry {
  createTime: bigint;
  handle: ProcessHandle;
  user?: string | null;
  commandLine?: string;
  /** Module base -> file name; a base is named once per process lifetime. */
  modules: Map<bigint, string>;
  /** Last module list and when it was read (performance.now() ms). */
  moduleList?: { names: string[]; atMs: number };
  /** Last list of files mapped as data views (kernel names), and when it was read. */
  mappedList?: { names: readonly string[]; atMs: number };
}

export class ProcessReader {
  private readonly entries = new Map<number, Entry>();

  /** Throws Win32Error (access denied, gone) when the process cannot be opened. */
  private entry(pid: number, createTime: bigint): Entry {
    const cached = this.entries.get(pid);
    if (cached && cached.createTime === createTime) return cached;
    if (cached) this.forget(pid);
    const handle = openProcess(pid, PROCESS_QUERY_INFORMATION | PROCESS_VM_READ);
    const entry: Entry = { createTime, handle, modules: new Map() };
    this.entries.set(pid, entry);
    return entry;
  }

  parameters(pid: number, createTime: bigint): ProcessParameters {
    return readParameters(remoteMemory(this.entry(pid, createTime).handle));
  }

  /**
   * Command line, read once per process (it rarely changes and is what users recognise). An empty one
   * is not kept: every Windows process has at least its image's name there, so it is a read that came
   * while the process's parameters were not (or no longer) in place, and the next scan asks again.
   */
  commandLine(pid: number, createTime: bigint): string {
    const entry = this.entry(pid, createTime);
    if (!entry.commandLine) entry.commandLine = this.parameters(pid, createTime).commandLine;
    return entry.commandLine;
  }

  user(pid: number, createTime: bigint): string | null {
    const entry = this.entry(pid, createTime);
    if (entry.user === undefined) {
      try {
        entry.user = processUser(entry.handle);
      } catch {
        entry.user = null;
      }
    }
    return entry.user;
  }

  /**
   * File names of the loaded modules, main image first. Only new module bases are named, and the
   * list is re-read at most every `refreshMs`: walking every process's loader list is most of a
   * poll's cost, and DLLs load rarely (a new one can show up to `refreshMs` late).
   */
  modules(pid: number, createTime: bigint, refreshMs = 0, now = performance.now()): readonly string[] {
    const entry = this.entry(pid, createTime);
    if (entry.moduleList && now - entry.moduleList.atMs < refreshMs) return entry.moduleList.names;
    const bases = listModules(entry.handle);
    const names: string[] = [];
    for (const base of bases) {
      let name = entry.modules.get(base);
      if (name === undefined) {
        try {
          name = moduleFileName(entry.handle, base);
        } catch {
          continue; // unloaded between the two calls
        }
        entry.modules.set(base, name);
      }
      names.push(name);
    }
    // The same list as before is the same array: the caller's match of it is kept.
    const last = entry.moduleList?.names;
    entry.moduleList = { names: last && sameStrings(last, names) ? last : names, atMs: now };
    return entry.moduleList.names;
  }

  /**
   * Kernel names of the files mapped as data views (see mapped-views.ts), re-read at most every
   * `refreshMs`: the walk reads every region of the address space. `walk` false: the last list only;
   * `walkNew` false: a process not walked yet is first walked a period from now.
   */
  mappedFiles(pid: number, createTime: bigint, refreshMs = 0, now = performance.now(), walk = true, walkNew = true): readonly string[] {
    const entry = this.entry(pid, createTime);
    if (entry.mappedList && (!walk || now - entry.mappedList.atMs < refreshMs)) return entry.mappedList.names;
    if (!walk) return NO_FILES;
    if (!entry.mappedList && !walkNew) {
      // A process met after the first scan (a test starting) is walked a period later, not in the scan
      // that first sees it: the walk is a call per region, slow under Wine, and that scan is the one
      // that places its first handles in a test.
      entry.mappedList = { names: NO_FILES, atMs: now };
      return NO_FILES;
    }
    // Wine's query of another process's memory goes through its server to the target: not to one that
    // is exiting (a wineserver crash was seen right as processes exited).
    if (!stillActive(entry.handle)) return entry.mappedList?.names ?? NO_FILES;
    const names = walkMappedFiles(entry.handle);
    // The same list as before is the same array: the caller's match of it is kept.
    const last = entry.mappedList?.names;
    entry.mappedList = { names: last && sameStrings(last, names) ? last : names, atMs: now };
    return entry.mappedList.names;
  }

  /** When `pid`'s module list (or mapped-file list) was last read, in performance.now() ms; -Infinity: never. */
  listedAtMs(pid: number, list: 'modules' | 'mapped'): number {
    const entry = this.entries.get(pid);
    return (list === 'modules' ? entry?.moduleList?.atMs : entry?.mappedList?.atMs) ?? -Infinity;
  }

  /** Closes handles of processes that are gone (or whose pid now names another process). */
  prune(live: ReadonlyMap<number, bigint>): void {
    for (const [pid, entry] of this.entries) if (live.get(pid) !== entry.createTime) this.forget(pid);
  }

  private forget(pid: number): void {
    const entry = this.entries.get(pid);
    if (!entry) return;
    this.entries.delete(pid);
    closeHandle(entry.handle);
  }

  dispose(): void {
    for (const pid of [...this.entries.keys()]) this.forget(pid);
  }
}

const NO_FILES: readonly string[] = [];

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function walkMappedFiles(handle: ProcessHandle): string[] {
  const info = new NativeMemory(MEMORY_BASIC_INFORMATION_BYTES);
  const name = new NativeMemory(16 + 2 * 1024);
  try {
    return mappedFiles({
      region: (address) =>
        ntSuccess(nt.ntQueryVirtualMemory(handle, address, nt.MemoryBasicInformation, info).status) ? parseMemoryBasicInformation(info.read()) : null,
      fileName: (base) => {
        const result = nt.ntQueryVirtualMemory(handle, base, nt.MemoryMappedFilenameInformation, name);
        return ntSuccess(result.status) ? readUnicodeStringIn(name.read(), 0, name.address) : null; // a pagefile-backed section has no file
      },
    });
  } finally {
    name.free();
    info.free();
  }
}

/** The process's memory as process-parameters.ts reads it: its PEB(s) and ReadProcessMemory. */
export function remoteMemory(handle: ProcessHandle): RemoteProcessMemory {
  return {
    pebAddress: () => {
      const basic = new NativeMemory(PROCESS_BASIC_INFORMATION_BYTES);
      try {
        const result = nt.ntQueryInformationProcess(handle, nt.ProcessBasicInformation, basic);
        if (!ntSuccess(result.status)) throw new NtStatusError('NtQueryInformationProcess(ProcessBasicInformation)', result.status);
        return parseBasicInformation(basic.read()).pebAddress;
      } finally {
        basic.free();
      }
    },
    wow64PebAddress: () => {
      const answer = new NativeMemory(8);
      try {
        const result = nt.ntQueryInformationProcess(handle, nt.ProcessWow64Information, answer);
        // An OS or a layer without the class (Wine's 64-bit-only prefix answers it): a native process.
        if (!ntSuccess(result.status)) return 0n;
        return answer.read(8).readBigUInt64LE(0);
      } finally {
        answer.free();
      }
    },
    read: (address, bytes) => readMemory(handle, address, bytes),
  };
}

/** The process's environment block (ProcessParameters->Environment). */
export function readEnvironmentBlock(handle: ProcessHandle): Buffer {
  return readEnvironment(remoteMemory(handle));
}

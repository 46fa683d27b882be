// App side, per process: PEB strings (command line, image path, current directory and its handle),
// user, and loaded modules. None of these calls can hang (ReadProcessMemory fails fast), so they
// run here, not in the name worker. Process handles are cached per (pid, create time).
import { processUser } from './advapi32.js';
import { closeHandle, openProcess, PROCESS_QUERY_INFORMATION, PROCESS_VM_READ, readMemory } from './kernel32.js';
import { NativeMemory } from './koffi-loader.js';
import * as nt from './ntdll.js';
import {
  decodeUtf16,
  parseBasicInformation,
  parseProcessParameters,
  PEB_PROCESS_PARAMETERS_OFFSET,
  PROCESS_BASIC_INFORMATION_BYTES,
  PROCESS_PARAMETERS_BYTES,
} from './peb-layout.js';
import { listModules, moduleFileName } from './psapi.js';
import { NtStatusError, ntSuccess } from './win-errors.js';
import type { ProcessHandle } from './win-types.js';
import type { UnicodeStringRef } from './handle-table.js';
import { environmentBlockLength, PARAMETERS_ENVIRONMENT_OFFSET, PARAMETERS_ENVIRONMENT_SIZE_OFFSET } from './environment-block.js';

export interface ProcessParameters {
  commandLine: string;
  imagePath: string;
  currentDirectory: string;
  currentDirectoryHandle: bigint;
}

interface Entry {
  createTime: bigint;
  handle: ProcessHandle;
  user?: string | null;
  commandLine?: string;
  /** Module base -> file name; a base is named once per process lifetime. */
  modules: Map<bigint, string>;
  /** Last module list and when it was read (performance.now() ms). */
  moduleList?: { names: string[]; atMs: number };
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
    const { handle } = this.entry(pid, createTime);
    const paramsAddress = processParametersAddress(handle);
    const refs = parseProcessParameters(readMemory(handle, paramsAddress, PROCESS_PARAMETERS_BYTES));
    const text = (ref: UnicodeStringRef) => (ref.lengthBytes === 0 ? '' : decodeUtf16(readMemory(handle, ref.address, ref.lengthBytes)));
    return {
      commandLine: text(refs.commandLine),
      imagePath: text(refs.imagePath),
      currentDirectory: text(refs.currentDirectory),
      currentDirectoryHandle: refs.currentDirectoryHandle,
    };
  }

  /** Command line, read once per process (it rarely changes and is what users recognise). */
  commandLine(pid: number, createTime: bigint): string {
    const entry = this.entry(pid, createTime);
    entry.commandLine ??= this.parameters(pid, createTime).commandLine;
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
    entry.moduleList = { names, atMs: now };
    return names;
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

/** PEB -> ProcessParameters: where RTL_USER_PROCESS_PARAMETERS sits in the process. */
export function processParametersAddress(handle: ProcessHandle): bigint {
  const basic = new NativeMemory(PROCESS_BASIC_INFORMATION_BYTES);
  let pebAddress: bigint;
  try {
    const result = nt.ntQueryInformationProcess(handle, nt.ProcessBasicInformation, basic);
    if (!ntSuccess(result.status)) throw new NtStatusError('NtQueryInformationProcess(ProcessBasicInformation)', result.status);
    pebAddress = parseBasicInformation(basic.read()).pebAddress;
  } finally {
    basic.free();
  }
  return readMemory(handle, pebAddress + BigInt(PEB_PROCESS_PARAMETERS_OFFSET), 8).readBigUInt64LE(0);
}

const PAGE_BYTES = 4096;
const MAX_ENVIRONMENT_BYTES = 64 * 1024 * 1024;

/**
 * The process's environment block (ProcessParameters->Environment). Its size comes from
 * EnvironmentSize (Vista and later); when that is missing or implausible the block is read page by
 * page up to its terminating empty string (ReadProcessMemory fails on a read that crosses into an
 * unmapped page, so reads never cross a page boundary).
 */
export function readEnvironmentBlock(handle: ProcessHandle): Buffer {
  const paramsAddress = processParametersAddress(handle);
  const head = readMemory(handle, paramsAddress, PARAMETERS_ENVIRONMENT_SIZE_OFFSET + 8);
  const address = head.readBigUInt64LE(PARAMETERS_ENVIRONMENT_OFFSET);
  const size = head.length >= PARAMETERS_ENVIRONMENT_SIZE_OFFSET + 8 ? Number(head.readBigUInt64LE(PARAMETERS_ENVIRONMENT_SIZE_OFFSET)) : 0;
  return readEnvironmentAt(address, size, (at, bytes) => readMemory(handle, at, bytes));
}

/** The block at `address`: `size` bytes when plausible, else page by page up to its end. */
export function readEnvironmentAt(address: bigint, size: number, read: (address: bigint, bytes: number) => Buffer): Buffer {
  if (address === 0n) return Buffer.alloc(0);
  if (size > 0 && size <= MAX_ENVIRONMENT_BYTES) return read(address, size);
  const chunks: Buffer[] = [];
  let total = 0;
  let at = address;
  while (total < MAX_ENVIRONMENT_BYTES) {
    const chunk = read(at, PAGE_BYTES - Number(at % BigInt(PAGE_BYTES)));
    if (chunk.length === 0) break;
    chunks.push(chunk);
    total += chunk.length;
    at += BigInt(chunk.length);
    const soFar = Buffer.concat(chunks);
    const end = environmentBlockLength(soFar);
    if (end !== null) return soFar.subarray(0, end);
  }
  return Buffer.concat(chunks);
}

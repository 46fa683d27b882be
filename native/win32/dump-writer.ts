// The dump writer's entry point: `node dump-writer.js <pid> <dump path> <dump type> [<started at ms>]`.
// MiniDumpWriteDump suspends the target's threads while it writes and resumes them at the end; a
// process killed mid-call never resumes them, and the user's test hangs for good. So the dump is
// written here, in a child `holdwatch stack` starts detached (minidump-source.ts): Ctrl-C and a kill
// of `holdwatch stack` do not reach it, and it always finishes the call. It prints one JSON line
// (contract/dump-writer.ts) and exits.
import { rmSync, statSync } from 'node:fs';
import type { DumpWriterOutcome } from '../../contract/dump-writer.js';
import { sameProcessStart } from '../../core/same-process.js';
import * as dbghelp from './dbghelp.js';
import {
  closeHandle,
  createFileForWrite,
  openProcess,
  processCreationTime,
  PROCESS_DUP_HANDLE,
  PROCESS_QUERY_INFORMATION,
  PROCESS_VM_READ,
} from './kernel32.js';
import { ERROR_ACCESS_DENIED, ERROR_INVALID_PARAMETER, Win32Error } from './win-errors.js';
import { fileTimeToUnixMs, type ProcessHandle } from './win-types.js';

function writeDump(pid: number, path: string, dumpType: number, startedAtMs: number | undefined): DumpWriterOutcome {
  let process: ProcessHandle;
  try {
    process = openProcess(pid, PROCESS_QUERY_INFORMATION | PROCESS_VM_READ | PROCESS_DUP_HANDLE);
  } catch (error) {
    if (error instanceof Win32Error && error.errorCode === ERROR_INVALID_PARAMETER) return { kind: 'gone', message: `process ${pid} exited` };
    if (error instanceof Win32Error && error.errorCode === ERROR_ACCESS_DENIED) return { kind: 'denied', message: error.message };
    throw error;
  }
  try {
    // On the handle the dump is written through: a reused pid cannot slip in after this check.
    if (startedAtMs !== undefined && !sameProcessStart(startedAtMs, fileTimeToUnixMs(processCreationTime(process)), 'win32'))
      return { kind: 'gone', message: `process ${pid} has already exited (its pid now belongs to another process)` };
    return { kind: 'written', bytes: writeInto(process, pid, path, dumpType) };
  } finally {
    closeHandle(process);
  }
}

/** The dump's size; a failed dump leaves a truncated file that WinDbg would misread, so it is removed. */
function writeInto(process: ProcessHandle, pid: number, path: string, dumpType: number): number {
  const file = createFileForWrite(path);
  let written = false;
  try {
    dbghelp.beginSymbolSession(process);
    try {
      dbghelp.writeMiniDump(process, pid, file, dumpType);
      written = true;
    } finally {
      dbghelp.endSymbolSession(process);
    }
  } finally {
    closeHandle(file);
    if (!written) rmSync(path, { force: true });
  }
  return statSync(path).size;
}

const [pid, path, dumpType, startedAt] = process.argv.slice(2);
let outcome: DumpWriterOutcome;
try {
  outcome = writeDump(Number(pid), path!, Number(dumpType), startedAt === undefined ? undefined : Number(startedAt));
} catch (error) {
  outcome = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}
// The parent may be gone (killed while the dump was written): the dump is done, the line has no reader.
process.stdout.on('error', () => {});
process.stdout.write(`${JSON.stringify(outcome)}\n`);

// The live stack on Windows: a minidump written with MiniDumpWriteDump into holdwatch's data dir
// (for WinDbg or Visual Studio, which resolve frames with symbols) plus the thread list from
// SystemProcessInformation. The dump is written by a detached child (dump-writer.ts), so killing
// `holdwatch stack` mid-dump cannot leave the target's threads suspended.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DumpWriterOutcomeSchema, type DumpWriterOutcome } from '../../contract/dump-writer.js';
import { unpackedPath } from '../../core/asar-unpacked.js';
import { BadInputError } from '../../core/errors.js';
import { parseJsonOrUndefined } from '../../core/json-text.js';
import type { LiveStackResult } from '../../core/live-stack.js';
import type { LiveStackSource } from '../../core/platform.js';
import * as dbghelp from './dbghelp.js';
import { GrowingQuery } from './grow-query.js';
import { parseProcessList } from './handle-table.js';
import { NativeMemory } from '../koffi-loader.js';
import { parseProcessThreads } from './minidump-threads.js';
import * as nt from './ntdll.js';

// Thread stacks, handles, thread times and the memory map: a few MB, enough for WinDbg's `~*k`
// and `!handle`, without the full heap a "full dump" would copy.
const DUMP_TYPE =
  dbghelp.MiniDumpWithHandleData |
  dbghelp.MiniDumpWithThreadInfo |
  dbghelp.MiniDumpWithFullMemoryInfo |
  dbghelp.MiniDumpWithUnloadedModules |
  dbghelp.MiniDumpWithProcessThreadData |
  dbghelp.MiniDumpWithIndirectlyReferencedMemory;

// In the packaged app, from app.asar.unpacked: Electron as Node does not load ESM from inside the archive.
const WRITER_SCRIPT = unpackedPath(fileURLToPath(new URL('./dump-writer.js', import.meta.url)));

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
    mkdirSync(this.options.dumpsDir, { recursive: true });
    const stamp = (this.options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const path = join(this.options.dumpsDir, `${name.replace(/\.exe$/i, '').replace(/[^\w.-]+/g, '_') || 'process'}-${pid}-${stamp}.dmp`);
    const outcome = await writeDumpDetached(pid, path, startedAtMs);
    if (outcome.kind === 'gone') throw new BadInputError(outcome.message);
    if (outcome.kind === 'failed') throw new Error(outcome.message);
    if (outcome.kind === 'denied') {
      return {
        kind: 'unavailable',
        pid,
        tool: 'minidump',
        reason: `needs read and query access to pid ${pid} (${outcome.message})`,
        nextStep: 'run holdwatch as the same user, or elevated (Run as administrator) for other users and services; protected processes cannot be dumped',
      };
    }
    return {
      kind: 'stack',
      pid,
      tool: 'minidump',
      threads,
      dumpPath: path,
      note: 'open the dump in WinDbg (~*k) or Visual Studio for the frames of each thread',
      rawText: `MiniDumpWriteDump type 0x${DUMP_TYPE.toString(16)}: ${path} (${outcome.bytes} bytes, ${threads.length} threads)\n`,
    };
  }
}

/**
 * Runs dump-writer.ts and waits for its one line. Detached: its own process group and no console,
 * so Ctrl-C does not reach it, and outside the job libuv ends a killed parent's children with
 * (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE), so killing `holdwatch stack` does not end it mid-dump.
 */
function writeDumpDetached(pid: number, path: string, startedAtMs: number | undefined): Promise<DumpWriterOutcome> {
  const args = [WRITER_SCRIPT, String(pid), path, String(DUMP_TYPE), ...(startedAtMs === undefined ? [] : [String(Math.round(startedAtMs))])];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      // Under Electron, execPath is the app: ELECTRON_RUN_AS_NODE makes it the plain Node the writer needs.
      env: { ...process.env, ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}) },
      // A real folder, never the caller's cwd: that may lie inside a watched dir, and the writer would hold it.
      cwd: dirname(process.execPath),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const parsed = DumpWriterOutcomeSchema.safeParse(parseJsonOrUndefined(out.trim()));
      if (parsed.success) resolve(parsed.data);
      else reject(new Error(`the dump writer exited ${code} without an answer: ${err.trim().split('\n')[0] ?? ''}`));
    });
  });
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

// Reads one process's facts from /proc. Every reader may throw ENOENT/ESRCH when the process
// exits mid-scan; callers treat that as "gone", which is normal, not an error.
import { readFileSync, readlinkSync, statSync } from 'node:fs';
import type { ProcessInfo } from '../../contract/holders.js';
import { isGoneError } from './proc-errors.js';
import { ReadBuffer, type ProcReader } from './proc-reader.js';
import { userNameOf } from './users.js';

export { isGoneError } from './proc-errors.js';

// USER_HZ is 100 on every Linux ABI Node supports; /proc/<pid>/stat's starttime is in these ticks.
const CLOCK_TICKS_PER_SECOND = 100;

let bootTimeMs: number | undefined;

/**
 * Boot time, to turn a process's start (clock ticks since boot) into wall-clock time. /proc/stat's
 * `btime` is whole seconds, up to a second off, which would misplace process starts between tests;
 * now minus /proc/uptime (10 ms resolution) is not. Read once, so identities stay stable.
 */
export function readBootTimeMs(): number {
  if (bootTimeMs === undefined) {
    const uptimeSeconds = Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]);
    bootTimeMs = Math.round(Date.now() - uptimeSeconds * 1000);
  }
  return bootTimeMs;
}

/**
 * Worker threads take the main thread's boot time: computed per thread, it would differ by a few
 * ms, and so would every process's start time, which is half of its identity.
 */
export function adoptBootTimeMs(ms: number): void {
  bootTimeMs = ms;
}

export interface StatFields {
  name: string;
  ppid: number;
  startedAtMs: number;
  /**
   * Where its stack starts (startstack): placed anew, at random, by each exec, and by nothing else, so
   * a change tells an exec from a process rewriting its own title. 0 while it has no memory (a kernel
   * thread, or a process in exit: it releases its memory before its files).
   */
  stackStart: number;
  /** A kernel thread: it has no environment or command line, and never will. */
  kernelThread: boolean;
  /** Exiting or a zombie: what it had is being, or has been, let go. */
  exiting: boolean;
}

// /proc/<pid>/stat's flags (include/linux/sched.h).
const PF_EXITING = 0x4;
const PF_KTHREAD = 0x00200000;

/**
 * Parses /proc/<pid>/stat. The name (comm) sits in parentheses and may itself contain spaces and
 * parentheses, so the fields after it are found from the LAST ')'.
 */
export function parseStat(text: string, bootMs: number): StatFields {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const name = text.slice(open + 1, close);
  const rest = text.slice(close + 2).split(' ');
  // rest[0] is field 3 (state); ppid is field 4, flags field 9, starttime field 22, startstack field 28.
  const state = rest[0] ?? '';
  const ppid = Number(rest[1]);
  const flags = Number(rest[6] ?? 0);
  const startTicks = Number(rest[19]);
  const stackStart = Number(rest[25] ?? 0);
  return {
    name,
    ppid,
    startedAtMs: bootMs + Math.round((startTicks * 1000) / CLOCK_TICKS_PER_SECOND),
    stackStart,
    kernelThread: (flags & PF_KTHREAD) !== 0,
    exiting: state === 'Z' || state === 'X' || (flags & PF_EXITING) !== 0,
  };
}

export function readStat(pid: number): StatFields {
  return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), readBootTimeMs());
}

/** Joins argv for display; arguments with whitespace or quotes are double-quoted. */
export function formatCommandLine(argv: readonly string[]): string {
  return argv.map((a) => (a === '' || /[\s"]/.test(a) ? `"${a.replace(/(["\\])/g, '\\$1')}"` : a)).join(' ');
}

export function readArgv(pid: number): string[] {
  return splitArgv(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
}

function splitArgv(raw: string): string[] {
  const argv = raw.split('\0');
  if (argv.at(-1) === '') argv.pop();
  return argv;
}

function readExe(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/exe`, 'utf8');
  } catch {
    return null; // kernel threads have none; other users' processes deny it
  }
}

// TASK_COMM_LEN less its NUL: the kernel cuts a longer name here.
const COMM_MAX_BYTES = 15;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * The process's name as a person would say it: its comm, unless comm is a thread's name. comm is the
 * main thread's name, and a runtime may rename that thread: Node 24 calls it "MainThread". When comm
 * is no prefix of the exe's or argv[0]'s base name (comm is cut at 15 bytes, hence prefix), the exe's
 * base name is the name, or argv[0]'s when the exe cannot be read (another user's process); a
 * program that set its own title (`postgres: checkpointer`, `exec -a`) keeps comm. A comm cut at 15
 * bytes gives way to the whole name it starts: a Go test binary is `pkg.test`, and a run names a
 * process by its exec's whole path elsewhere, so one name serves both.
 */
export function displayName(comm: string, argv0: string | undefined, exe: string | null): string {
  const fromArgv = argv0 ? baseName(argv0).replace(/^-/, '') : '';
  const fromExe = exe ? baseName(exe.replace(/ \(deleted\)$/, '')) : '';
  if (Buffer.byteLength(comm) === COMM_MAX_BYTES) {
    const whole = [fromExe, fromArgv].find((name) => name.length > comm.length && name.startsWith(comm));
    if (whole) return whole;
  }
  if (comm === '' || fromArgv.startsWith(comm) || fromExe.startsWith(comm)) return comm;
  if (fromExe) return fromExe;
  return fromArgv && !/\s/.test(fromArgv) ? fromArgv : comm;
}

export interface ProcessInfoReading {
  /** How to read stat and cmdline (a walk's libc reader); Node's fs by default. */
  reader?: ProcReader;
  /** The exe link as the walk just read it (null: none), so it is not read twice. */
  exe?: string | null;
}

// One per thread, for a reader's stat and cmdline.
const infoBuffer = new ReadBuffer(8 * 1024);

/** Everything core wants about a process, or null when it has exited. */
export function readProcessInfo(pid: number, reading: ProcessInfoReading = {}): ProcessInfo | null {
  return readProcessFacts(pid, reading)?.info ?? null;
}

/** readProcessInfo, and where its stack starts (StatFields.stackStart): a walk tells an exec by it. */
export function readProcessFacts(pid: number, reading: ProcessInfoReading = {}): { info: ProcessInfo; stackStart: number } | null {
  try {
    const texts = reading.reader ? readTextsWith(reading.reader, pid) : readTexts(pid);
    if (!texts) return null;
    const stat = parseStat(texts.stat, readBootTimeMs());
    const uid = statSync(`/proc/${pid}`).uid;
    const exe = reading.exe !== undefined ? reading.exe : readExe(pid);
    const argv = splitArgv(exe !== null && texts.cmdline === '' ? cmdlineAfterExec(pid, reading.reader) : texts.cmdline);
    const info: ProcessInfo = {
      pid,
      ppid: stat.ppid,
      startedAtMs: stat.startedAtMs,
      name: displayName(stat.name, argv[0], exe),
      exe,
      // Kernel threads have no argv; ps shows them as [name].
      commandLine: argv.length > 0 ? formatCommandLine(argv) : `[${stat.name}]`,
      user: userNameOf(uid),
    };
    return { info, stackStart: stat.stackStart };
  } catch (error) {
    if (isGoneError(error)) return null;
    throw error;
  }
}

/**
 * The command line of a process that has a program but showed none: one caught inside execve, between
 * its new memory and the arguments copied there (microseconds, longer on a loaded machine). Read again a
 * few times; a kernel thread has no program and is never asked.
 */
function cmdlineAfterExec(pid: number, reader: ProcReader | undefined): string {
  for (let attempt = 0; attempt < EXEC_REREADS; attempt++) {
    const cmdline = reader ? readTextsWith(reader, pid)?.cmdline : readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmdline) return cmdline;
  }
  return '';
}

const EXEC_REREADS = 3;

function readTexts(pid: number): { stat: string; cmdline: string } {
  return { stat: readFileSync(`/proc/${pid}/stat`, 'utf8'), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8') };
}

/** null when the process is gone (or denies it). */
function readTextsWith(reader: ProcReader, pid: number): { stat: string; cmdline: string } | null {
  const text = (path: string) => {
    const length = reader.readFile(path, infoBuffer);
    return length === null ? null : infoBuffer.bytes.toString('utf8', 0, length);
  };
  const stat = text(`/proc/${pid}/stat`);
  const cmdline = stat === null ? null : text(`/proc/${pid}/cmdline`);
  return cmdline === null ? null : { stat: stat!, cmdline };
}

// Live stacks on Linux: py-spy for Python processes when installed (Python frames), else gdb, else
// eu-stack (native frames). Each tool attaches with ptrace; when none is present or ptrace is
// refused, the result says which tool or privilege is missing and what to do.
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { BadInputError } from '../../core/errors.js';
import {
  isPermissionFailure,
  parseEuStack,
  parseGdbBacktrace,
  parsePySpyJson,
  type LiveStackResult,
  type LiveStackThread,
  type LiveStackTool,
  type LiveStackUnavailable,
} from '../../core/live-stack.js';
import type { LiveStackSource } from '../../core/platform.js';
import { sameProcessStart } from '../../core/same-process.js';
import { findOnPath, runTool, type ToolRun } from './live-stack-tools.js';
import { readStat } from './proc-stat.js';

export interface LinuxLiveStackOptions {
  /** How long one tool may take before it is ended (default 10 s). */
  deadlineMs?: number;
  /** PATH the tools are looked up on (default: this process's). */
  path?: string;
}

const PY_SPY_NOTE = 'native frames of the Python interpreter; for Python frames install py-spy (pip install py-spy)';

export class LinuxLiveStackSource implements LiveStackSource {
  private readonly deadlineMs: number;
  private readonly path: string | undefined;

  constructor(options: LinuxLiveStackOptions = {}) {
    this.deadlineMs = options.deadlineMs ?? 10_000;
    this.path = options.path;
  }

  async liveStack(pid: number, startedAtMs?: number): Promise<LiveStackResult> {
    if (!Number.isSafeInteger(pid) || pid <= 0 || !existsSync(`/proc/${pid}/stat`)) throw new BadInputError(`no process with pid ${pid}`);
    // Checked right before the tools attach and again after they detach: the same start time on both
    // sides means the pid belonged to that one process throughout (a traced process cannot be reaped
    // and its pid reused while the tracer holds it), so the stack is its stack.
    const checkIdentity = () => {
      if (startedAtMs !== undefined) refuseOtherProcess(pid, startedAtMs);
    };
    checkIdentity();
    const result = await this.stackOf(pid);
    checkIdentity();
    return result;
  }

  private async stackOf(pid: number): Promise<LiveStackResult> {
    const python = isPythonProcess(pid);
    if (python) {
      const pySpy = findOnPath('py-spy', this.path);
      if (pySpy) {
        const result = await this.attempt('py-spy', pid, pySpy, ['dump', '--pid', String(pid), '--json'], (text) => parsePySpyJson(text));
        if (result.kind === 'stack' || result.reason.startsWith('needs ptrace')) return result;
      }
    }
    const note = python ? PY_SPY_NOTE : undefined;
    const gdb = findOnPath('gdb', this.path);
    let failure: LiveStackUnavailable | undefined;
    if (gdb) {
      // gdb stops every thread of the target while attached (ptrace); -batch detaches when the
      // commands end, and on SIGTERM at the deadline gdb quits, which detaches too.
      const args = ['-p', String(pid), '-batch', '-nx', '-iex', 'set debuginfod enabled off', '-ex', 'set pagination off', '-ex', 'thread apply all bt'];
      const result = await this.attempt('gdb', pid, gdb, args, (text) => parseGdbBacktrace(text, pid), note);
      if (result.kind === 'stack' || result.reason.startsWith('needs ptrace')) return result;
      failure = result;
    }
    const euStack = findOnPath('eu-stack', this.path);
    if (euStack) return this.attempt('eu-stack', pid, euStack, ['-m', '-s', '-p', String(pid)], parseEuStack, note);
    return (
      failure ?? {
        kind: 'unavailable',
        pid,
        reason: `no stack tool found on PATH (${python ? 'py-spy, ' : ''}gdb, eu-stack)`,
        nextStep: python
          ? 'install py-spy (pip install py-spy) or gdb (apt-get install gdb)'
          : 'install gdb (apt-get install gdb) or elfutils for eu-stack (apt-get install elfutils)',
      }
    );
  }

  private async attempt(
    tool: LiveStackTool,
    pid: number,
    file: string,
    args: string[],
    parse: (text: string) => LiveStackThread[],
    note?: string,
  ): Promise<LiveStackResult> {
    const stoppedBefore = isJobStopped(pid);
    const run = await runTool(file, args, { deadlineMs: this.deadlineMs });
    if (run.timedOut) {
      // A SIGKILLed tracer leaves its target in a stopped group-stop: let it run again, unless it was
      // stopped before (Ctrl-Z, SIGSTOP, a debugger of the user's) — that stop is the user's.
      if (!stoppedBefore) resumeStopped(pid);
      return {
        kind: 'unavailable',
        pid,
        tool,
        reason: `${tool} took longer than ${this.deadlineMs} ms and was ended`,
        nextStep: `run ${basename(file)} by hand: ${[basename(file), ...args].join(' ')}`,
      };
    }
    let threads: LiveStackThread[] = [];
    try {
      threads = parse(run.stdout);
    } catch {
      // py-spy wrote no JSON (it failed): the reason is on stderr, handled below.
    }
    if (threads.some((t) => t.frames.length > 0)) return { kind: 'stack', pid, tool, threads, ...(note ? { note } : {}), rawText: run.stdout };
    return explainFailure(tool, pid, run);
  }
}

function explainFailure(tool: LiveStackTool, pid: number, run: ToolRun): LiveStackUnavailable {
  const text = `${run.stderr}\n${run.stdout}`;
  if (isPermissionFailure(text)) {
    const scope = readPtraceScope();
    const yama = scope !== null && scope > 0 ? `; /proc/sys/kernel/yama/ptrace_scope=${scope} also limits ptrace to descendants unless root` : '';
    return {
      kind: 'unavailable',
      pid,
      tool,
      reason: `needs ptrace permission for pid ${pid} (${tool} was refused)`,
      nextStep: `run as the same user or root${yama}`,
    };
  }
  if (!existsSync(`/proc/${pid}`)) throw new BadInputError(`process ${pid} exited`);
  const first =
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('[') && !l.startsWith('warning:')) ?? `exit code ${run.code}`;
  return {
    kind: 'unavailable',
    pid,
    tool,
    reason: `${tool} printed no stack: ${first}`,
    nextStep: `run it by hand to see why, or try another tool (gdb, eu-stack)`,
  };
}

/** Python by its executable, its command name or argv[0] (exe is unreadable for others' processes). */
export function isPythonProcess(pid: number): boolean {
  const names: string[] = [];
  for (const read of [
    () => basename(readlinkSync(`/proc/${pid}/exe`)),
    () => readFileSync(`/proc/${pid}/comm`, 'utf8').trim(),
    () => basename(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''),
  ]) {
    try {
      names.push(read());
    } catch {
      // gone or denied: the other sources decide
    }
  }
  return names.some((name) => /^python(\d+(\.\d+)*)?$/.test(name));
}

/** Throws BadInputError unless `pid` is still the process that started at `startedAtMs`. */
function refuseOtherProcess(pid: number, startedAtMs: number): void {
  let started: number | null = null;
  try {
    started = readStat(pid).startedAtMs;
  } catch {
    // gone
  }
  if (started === null || !sameProcessStart(startedAtMs, started, 'linux'))
    throw new BadInputError(`process ${pid} has already exited${started === null ? '' : ' (its pid now belongs to another process)'}`);
}

function readPtraceScope(): number | null {
  try {
    return Number(readFileSync('/proc/sys/kernel/yama/ptrace_scope', 'utf8').trim());
  } catch {
    return null;
  }
}

/** Whether `pid` is in a job-control stop (State T); false when gone or unreadable. */
export function isJobStopped(pid: number): boolean {
  try {
    return /^State:\s+T/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

function resumeStopped(pid: number): void {
  try {
    if (isJobStopped(pid)) process.kill(pid, 'SIGCONT');
  } catch {
    // gone, or not ours to signal
  }
}

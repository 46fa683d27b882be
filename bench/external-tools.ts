// Times the external tools (and holdwatch's own one-shot CLI) as a user runs them: a fresh process
// per run, wall time from spawn to exit and the CPU it used. Their PIDs come from parsing what they print.
// Several tools are run in turn (one of each, then again), so a change in machine load hits them alike.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Measurement } from './measurement.js';
import { reapedChildrenCpuMs } from './timed-command.js';

const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

interface Run {
  ms: number;
  /** CPU of the process and its reaped children (Linux; NaN elsewhere). */
  cpuMs: number;
  stdout: string;
  status: number | null;
  error?: Error;
}

function runOnce(command: string, args: readonly string[]): Run {
  const cpu = () => (process.platform === 'linux' ? reapedChildrenCpuMs() : Number.NaN);
  const cpuBefore = cpu();
  const started = performance.now();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: MAX_OUTPUT_BYTES, stdio: ['ignore', 'pipe', 'ignore'] });
  const ms = performance.now() - started;
  return { ms, cpuMs: cpu() - cpuBefore, stdout: result.stdout ?? '', status: result.status, ...(result.error ? { error: result.error } : {}) };
}

export interface ToolCommand {
  tool: string;
  command: string;
  args: readonly string[];
  parsePids: (stdout: string) => Set<number>;
  /** Exit codes that mean "ran fine"; default 0 and 1 (lsof and fuser answer 1 when they find nothing or hit a vanished process). */
  okStatuses?: readonly number[];
}

/**
 * Runs each tool `rounds` times, in turn (one of each, then again), never overlapping; PIDs are parsed
 * from each tool's first run. A tool that fails once is measured no further and says why.
 */
export async function timeCommandsInTurn<T extends readonly ToolCommand[]>(tools: T, rounds: number): Promise<{ [K in keyof T]: Measurement }> {
  const measured: Measurement[] = tools.map((t) => ({ tool: t.tool, samplesMs: [], cpuSamplesMs: [], pids: null }));
  for (let round = 0; round < rounds; round++) {
    for (const [i, t] of tools.entries()) {
      const m = measured[i]!;
      if (m.note) continue;
      // spawnSync blocks the event loop: give a pending Ctrl-C its turn between runs.
      await nextTurn();
      const run = runOnce(t.command, t.args);
      if (run.error || run.status === null || !(t.okStatuses ?? [0, 1]).includes(run.status)) {
        measured[i] = { tool: t.tool, samplesMs: [], pids: null, note: `failed: ${run.error?.message ?? `exit ${run.status}`}` };
        continue;
      }
      m.samplesMs.push(run.ms);
      m.cpuSamplesMs!.push(run.cpuMs);
      m.pids ??= t.parsePids(run.stdout);
    }
  }
  return measured as { [K in keyof T]: Measurement };
}

/** lsof's default output: a header line, then one line per file with the PID in the second column. */
export function parseLsofPids(stdout: string): Set<number> {
  const pids = new Set<number>();
  for (const line of stdout.split('\n').slice(1)) {
    const pid = Number(line.trim().split(/\s+/)[1]);
    if (Number.isInteger(pid) && pid > 0) pids.add(pid);
  }
  return pids;
}

/** fuser prints only PIDs on stdout (names and access letters go to stderr). */
export function parseFuserPids(stdout: string): Set<number> {
  return new Set((stdout.match(/\d+/g) ?? []).map(Number));
}

/** `holdwatch scan --json`: the Snapshot contract's holders. */
export function parseSnapshotPids(stdout: string): Set<number> {
  const snapshot = JSON.parse(stdout) as { holders: { pid: number }[] };
  return new Set(snapshot.holders.map((h) => h.pid));
}

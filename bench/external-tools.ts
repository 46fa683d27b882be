// Times the external tools (and holdwatch's own one-shot CLI) as a user runs them: a fresh process
// per run, wall time from spawn to exit. Their PIDs come from parsing what they print.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Measurement } from './measurement.js';

const MAX_OUTPUT_BYTES = 512 * 1024 * 1024;

interface Run {
  ms: number;
  stdout: string;
  status: number | null;
  error?: Error;
}

function runOnce(command: string, args: readonly string[]): Run {
  const started = performance.now();
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: MAX_OUTPUT_BYTES, stdio: ['ignore', 'pipe', 'ignore'] });
  return { ms: performance.now() - started, stdout: result.stdout ?? '', status: result.status, ...(result.error ? { error: result.error } : {}) };
}

/**
 * Runs `command` `runs` times, one after the other (never overlapping, so they do not compete); PIDs are parsed from the first run. `okStatuses` are the exit codes that
 * mean "ran fine" (lsof and fuser answer 1 when they find nothing or hit a vanished process).
 */
export async function timeCommand(
  tool: string,
  command: string,
  args: readonly string[],
  runs: number,
  parsePids: (stdout: string) => Set<number>,
  okStatuses: readonly number[] = [0, 1],
): Promise<Measurement> {
  const samplesMs: number[] = [];
  let pids: Set<number> | null = null;
  for (let i = 0; i < runs; i++) {
    // spawnSync blocks the event loop: give a pending Ctrl-C its turn between runs.
    await nextTurn();
    const run = runOnce(command, args);
    if (run.error || run.status === null || !okStatuses.includes(run.status)) {
      return { tool, samplesMs: [], pids: null, note: `failed: ${run.error?.message ?? `exit ${run.status}`}` };
    }
    samplesMs.push(run.ms);
    pids ??= parsePids(run.stdout);
  }
  return { tool, samplesMs, pids };
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

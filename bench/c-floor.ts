// The C floor: bench/proc-fd-floor.c, compiled with `cc -O2` into bench/.build/ and timed inside
// itself, so process start-up is not counted.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function compileFloor(repoRoot: string): string {
  const outDir = join(repoRoot, 'bench', '.build');
  mkdirSync(outDir, { recursive: true });
  const binary = join(outDir, 'proc-fd-floor');
  execFileSync('cc', ['-O2', '-Wall', '-o', binary, join(repoRoot, 'bench', 'proc-fd-floor.c')], { stdio: 'inherit' });
  return binary;
}

export interface FloorRuns {
  samplesMs: number[];
  cpuSamplesMs: number[];
  links: number;
  /** Processes with an fd under the dir, from the first run. */
  pids: Set<number>;
}

/** `fd`: the fd links only; `answer`: the walk that gives holdwatch's answer (proc-fd-floor.c says what it adds). */
export type FloorMode = 'fd' | 'answer';

export function runFloor(binary: string, dir: string, runs: number, mode: FloorMode = 'fd'): FloorRuns {
  return parseFloorOutput(execFileSync(binary, [dir, String(runs), mode], { encoding: 'utf8' }));
}

/** `run <wall ms> <links> <cpu ms>` per run, then `pids <pid>...`. */
export function parseFloorOutput(output: string): FloorRuns {
  const runs: FloorRuns = { samplesMs: [], cpuSamplesMs: [], links: 0, pids: new Set() };
  for (const line of output.split('\n')) {
    const [word, ...rest] = line.trim().split(/\s+/);
    if (word === 'run') {
      runs.samplesMs.push(Number(rest[0]));
      runs.links = Number(rest[1]);
      runs.cpuSamplesMs.push(Number(rest[2]));
    } else if (word === 'pids') {
      runs.pids = new Set(rest.map(Number));
    }
  }
  return runs;
}

// The C floor: bench/proc-fd-floor.c, compiled with `cc -O2` into bench/.build/ and timed inside
// itself, so process start-up is not counted.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Measurement } from './measurement.js';

export function compileFloor(repoRoot: string): string {
  const outDir = join(repoRoot, 'bench', '.build');
  mkdirSync(outDir, { recursive: true });
  const binary = join(outDir, 'proc-fd-floor');
  execFileSync('cc', ['-O2', '-Wall', '-o', binary, join(repoRoot, 'bench', 'proc-fd-floor.c')], { stdio: 'inherit' });
  return binary;
}

export function measureFloor(binary: string, dir: string, runs: number): Measurement & { links: number } {
  const output = execFileSync(binary, [dir, String(runs)], { encoding: 'utf8' });
  return { tool: 'C floor', ...parseFloorOutput(output) };
}

/** `run <ms> <links>` per run, then `pids <pid>...` (processes with an fd under the dir). */
export function parseFloorOutput(output: string): { samplesMs: number[]; links: number; pids: Set<number> } {
  const samplesMs: number[] = [];
  let links = 0;
  let pids = new Set<number>();
  for (const line of output.split('\n')) {
    const [word, ...rest] = line.trim().split(/\s+/);
    if (word === 'run') {
      samplesMs.push(Number(rest[0]));
      links = Number(rest[1]);
    } else if (word === 'pids') {
      pids = new Set(rest.map(Number));
    }
  }
  return { samplesMs, links, pids };
}

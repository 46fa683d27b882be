// What the determinism tests share: both CPUs kept busy by other processes for the file's length, and
// how many runs a "N of N" claim makes (HOLDWATCH_DETERMINISM_RUNS; the issues' measure is 50, the
// gate's default keeps its time within budget).
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { runCase, type CaseRun } from '../corpus/corpus.js';

export const DETERMINISM_RUNS = Number(process.env.HOLDWATCH_DETERMINISM_RUNS) || 10;

/**
 * Two busy processes, one per CPU, from the file's first test to its last, each in a session of its own:
 * `run` gives its command a session too, and where the kernel shares CPU between sessions (autogroup)
 * spinners left in the test's session would load holdwatch but not the command it supervises.
 */
export function loadBothCpus(): void {
  let load: ChildProcess[] = [];
  beforeAll(() => {
    load = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: true }));
  });
  afterAll(() => {
    for (const child of load) child.kill('SIGKILL');
  });
}

/** `runs` runs of a case (as runCase takes it), two at a time beside the busy processes. */
export async function runInPairs(
  runs: number,
  caseDir: string,
  command: (watched: string) => string[],
  env: (watched: string) => Record<string, string>,
): Promise<CaseRun[]> {
  const halves = await Promise.all([Math.ceil(runs / 2), Math.floor(runs / 2)].map((n) => runCase(caseDir, command, n, env)));
  return halves.flat();
}

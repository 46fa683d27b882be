// Wall time of one command, spawn to exit, and the CPU its whole process tree used; its output is kept
// only to explain a failure.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds of every descendant this process has reaped so far (cutime + cstime): each process
 * adds its own reaped children's to its own when its parent reaps it, so a command's whole tree counts.
 */
export function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND; // fields 16 and 17
}

export interface Timed {
  wallMs: number;
  /** CPU of the command's process tree (Linux; NaN elsewhere), at clock-tick (10 ms) resolution. */
  cpuMs: number;
}

/** Wall milliseconds from spawn to exit; a failing suite is a broken bench, not a sample. */
export async function timedCommand(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return (await timedCommandCpu(argv, cwd, env)).wallMs;
}

/**
 * As timedCommand, with the tree's CPU beside the wall time. Run one at a time: it reads this process's
 * reaped total. The command gets a session of its own, as `holdwatch run` gives its command one off a
 * terminal: where the kernel shares CPU between sessions (autogroup), a plain command left in the bench's
 * session would get a smaller share than the same command under `run`, and the ratio would flatter run.
 */
export function timedCommandCpu(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Timed> {
  const linux = process.platform === 'linux';
  const cpuBefore = linux ? reapedChildrenCpuMs() : Number.NaN;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      const cpuMs = linux ? reapedChildrenCpuMs() - cpuBefore : Number.NaN;
      if (code === 0) resolve({ wallMs, cpuMs });
      else reject(new Error(`${argv.join(' ')} exited ${code}:\n${output.slice(-2000)}`));
    });
  });
}

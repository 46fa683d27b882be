// `holdwatch run` as a user starts it in a terminal, with tests/fixtures/attach/teardown-blocked.bats:
// the suite waits for its go file, so a UI can attach before anything happens; then its first test's
// teardown fails on a file a detached python holds. Each run is its own process group, as a terminal
// job is; off a terminal holdwatch starts its command in a group of its own (run's signal handling), so
// ending a run ends both groups. The detached holders (setsid) are ended by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, REPO_ROOT } from './cli.js';

export const BLOCKED_SUITE = join(REPO_ROOT, 'tests/fixtures/attach/teardown-blocked.bats');

const groups = new Set<ChildProcess>();

export interface TerminalRun {
  child: ChildProcess;
  /** The watched dir; the suite works in work-<n> below it. */
  work: string;
  cwd: string;
  /** Lets the suite start. */
  go(): void;
  exited: Promise<number | null>;
  stderr(): string;
}

/**
 * `dataDir` must be the UI's HOLDWATCH_DATA_DIR: that is where runs list themselves. `command` runs in
 * `dir` instead of the blocked bats suite (with EXAMPLE_DIR set to the watched dir).
 */
export function startTerminalRun(dir: string, dataDir: string, command: string[] = ['bats', BLOCKED_SUITE]): TerminalRun {
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  const goFile = join(dir, 'go');
  const env = { ...process.env, HOLDWATCH_DATA_DIR: dataDir, EXAMPLE_DIR: work, GO_FILE: goFile, HOLD_SECONDS: '3' };
  const child = spawn(process.execPath, [CLI, 'run', '--watch', work, '--', ...command], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    detached: true,
  });
  groups.add(child);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, work, cwd: dir, go: () => writeFileSync(goFile, ''), exited, stderr: () => stderr };
}

/** SIGKILL to a run's groups: holdwatch and the suite, as closing its terminal would end them. */
export function killTerminalRun(run: TerminalRun): void {
  killGroups(run.child.pid!);
}

export function endTerminalRuns(holderPids: Iterable<number> = []): void {
  for (const child of groups) killGroups(child.pid!);
  groups.clear();
  for (const pid of holderPids) signal(pid, 'SIGTERM');
}

/** holdwatch's group and its command's, read before either is signalled (the command leads its own group). */
function killGroups(holdwatchPid: number): void {
  const commands = childrenOf(holdwatchPid);
  signal(-holdwatchPid, 'SIGKILL');
  for (const pid of commands) signal(-pid, 'SIGKILL');
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return []; // gone, or no /proc
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

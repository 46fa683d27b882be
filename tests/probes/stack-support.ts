// Runs real Python and Node programs under the stack probes (injected exactly as holdwatch run will,
// through core/stacks' probeEnvironment), scans their holders with the real Linux backend, and
// reads the probe logs back through the same parser holdwatch uses.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Holder } from '../../contract/holders.js';
import type { StackFrame } from '../../contract/stacks.js';
import { parseProbeLog, probeEnvironment, type ProbeRecord } from '../../core/stacks/index.js';
import { NODE_TRACKERS_VARIABLE, nodeTrackersOf } from '../../host/run/runners/prepare.js';
import { LinuxHolderSource } from '../../native/linux/linux-holder-source.js';
import { expect } from 'vitest';

export const PYTHON = '/usr/bin/python3';
export const PYTHON_PROBE = join(import.meta.dirname, '../../probes/python');
export const NODE_PRELOAD = join(import.meta.dirname, '../../probes/node/preload.cjs');

export interface Scratch {
  root: string;
  /** Where the programs hold files (the "watched" dir). */
  watched: string;
  /** HOLDWATCH_PROBE_LOG. */
  logDir: string;
  write(name: string, text: string): string;
  probedEnv(extra?: NodeJS.ProcessEnv, logDir?: string): NodeJS.ProcessEnv;
  records(): { records: ProbeRecord[]; rejectedLines: number };
  dispose(): void;
}

export function makeScratch(): Scratch {
  const root = mkdtempSync(join(tmpdir(), 'hw-stacks-'));
  const watched = join(root, 'watched');
  const logDir = join(root, 'probe-log');
  mkdirSync(watched);
  mkdirSync(logDir);
  return {
    root,
    watched,
    logDir,
    write(name, text) {
      const file = join(root, name);
      writeFileSync(file, text);
      return file;
    },
    probedEnv(extra = {}, dir = logDir) {
      const base: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', [NODE_TRACKERS_VARIABLE]: nodeTrackersOf(), ...extra };
      delete base.HOLDWATCH_PROBE_DISABLED;
      const added = probeEnvironment({ logDir: dir, pythonProbeDir: PYTHON_PROBE, nodePreload: NODE_PRELOAD, env: base, pathDelimiter: delimiter });
      return { ...base, ...added };
    },
    records() {
      const records: ProbeRecord[] = [];
      let rejectedLines = 0;
      for (const name of readdirSync(logDir)) {
        const parsed = parseProbeLog(readFileSync(join(logDir, name), 'utf8'));
        records.push(...parsed.records);
        rejectedLines += parsed.rejectedLines;
      }
      return { records, rejectedLines };
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const started = new Set<ChildProcess>();

/** Starts a program that prints `ready` (and maybe more lines) once it holds what it should; resolves with its output so far. */
export function startHolding(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${command} exited early (${code}): ${output}${errors}`)));
    child.stderr.on('data', (d: Buffer) => (errors += d));
    child.stdout.on('data', (d: Buffer) => {
      output += d;
      if (output.includes('ready\n')) resolve({ child, output });
    });
  });
}

/** Kills every program startHolding started, and the pids they reported (detached children). */
export function killAll(extraPids: number[] = []): void {
  for (const child of started) child.kill('SIGKILL');
  started.clear();
  for (const pid of extraPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export async function scanHolders(dir: string): Promise<Holder[]> {
  const source = new LinuxHolderSource();
  try {
    const watch = await source.resolveWatchDir(dir);
    return (await source.scan({ dirs: [watch] })).holders;
  } finally {
    await source.dispose();
  }
}

export function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string) {
  const r = spawnSync(command, args, { env, cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

type Ran = ReturnType<typeof runToEnd>;

/** A probe that cannot write its log: same exit status and stdout as unprobed, one added stderr line. */
export function expectOnlyOneLineMore(plain: Ran, probed: Ran, status: number, line: RegExp): void {
  expect(plain.status).toBe(status);
  expect(probed.status).toBe(status);
  expect(probed.stdout).toBe(plain.stdout);
  const extra = probed.stderr.split('\n').filter((l) => !plain.stderr.split('\n').includes(l));
  expect(extra).toHaveLength(1);
  expect(extra[0]).toMatch(line);
}

export function topUserFrame(frames: StackFrame[]): StackFrame | undefined {
  return frames.find((f) => f.user);
}

/** The 1-based line of the first line of `source` containing `needle`. */
export function lineOf(source: string, needle: string): number {
  const index = source.split('\n').findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`test setup: ${needle} not in source`);
  return index + 1;
}

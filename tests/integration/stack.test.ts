// `holdwatch stack <pid>` against real processes: a tiny C program sleeping in a known function and
// a sleeping Python process, through gdb (on PATH here) and eu-stack (a PATH holding only it), plus
// the one-line answers when no tool is found, ptrace is refused, or the pid is bad.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveStack, LiveStackResult } from '../../core/live-stack.js';
import type * as SourceModule from '../../native/linux/live-stack-source.js';
import { REPO_ROOT, runCli } from '../support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'hw-stack-'));
const children: ChildProcess[] = [];
let sleeper: number;
let python: number;

function which(tool: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** A PATH holding only `tools` (symlinks), so the CLI sees exactly those. */
function pathWith(...tools: string[]): string {
  const dir = join(scratch, `bin-${tools.join('-') || 'none'}`);
  mkdirSync(dir, { recursive: true });
  for (const tool of tools) if (!existsSync(join(dir, tool))) symlinkSync(which(tool)!, join(dir, tool));
  return dir;
}

async function startReady(command: string, args: string[]): Promise<number> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${command} exited early (${code})`)));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
  });
  return child.pid!;
}

const functions = (stack: LiveStack) => stack.threads.flatMap((t) => t.frames.map((f) => f.function));
const state = (pid: number) => /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

beforeAll(async () => {
  // The C sleeper: main -> wait_forever -> sleep -> nanosleep, so the frames to find are known.
  writeFileSync(
    join(scratch, 'sleeper.c'),
    '#include <stdio.h>\n#include <unistd.h>\nstatic void wait_forever(void) { for (;;) sleep(1000); }\nint main(void) { puts("ready"); fflush(stdout); wait_forever(); return 0; }\n',
  );
  execFileSync('cc', ['-g', '-O0', '-o', join(scratch, 'sleeper'), join(scratch, 'sleeper.c')]);
  sleeper = await startReady(join(scratch, 'sleeper'), []);
  python = await startReady('/usr/bin/python3', ['-c', 'import time\nprint("ready", flush=True)\ntime.sleep(1000)']);
});

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(!which('gdb'))('gdb', () => {
  it('gives the C program frames, innermost first: the libc sleep, then wait_forever, then main', async () => {
    const run = await runCli(['stack', String(sleeper), '--json']);
    expect(run.code, run.stderr).toBe(0);
    const stack = JSON.parse(run.stdout) as LiveStack;
    expect(stack).toMatchObject({ kind: 'stack', pid: sleeper, tool: 'gdb' });
    expect(stack.threads.map((t) => t.id)).toEqual([sleeper]);
    const names = functions(stack);
    expect(names.findIndex((n) => /nanosleep/.test(n))).toBeLessThan(names.indexOf('wait_forever'));
    expect(names.indexOf('wait_forever')).toBe(names.indexOf('main') - 1);
    expect(stack.threads[0]!.frames.find((f) => f.function === 'main')).toMatchObject({ line: 4 });
    // gdb detached: the program runs on (sleeping, not stopped by a tracer).
    expect(state(sleeper)).toBe('S');
  });

  it('prints the text form without --json', async () => {
    const run = await runCli(['stack', String(sleeper)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^thread ${sleeper}`, 'm'));
    expect(run.stdout).toMatch(/^ {2}main \(.*sleeper\.c:4\)$/m);
  });

  it('a Python process without py-spy gets the interpreter frames and a note saying what py-spy would add', async () => {
    const run = await runCli(['stack', String(python), '--json'], { env: { PATH: pathWith('gdb') } });
    expect(run.code, run.stderr).toBe(0);
    const stack = JSON.parse(run.stdout) as LiveStack;
    expect(stack.tool).toBe('gdb');
    expect(stack.note).toMatch(/py-spy/);
    expect(functions(stack).some((n) => /clock_nanosleep|select/.test(n))).toBe(true);
  });

  it('at the deadline the tool is ended and the target keeps running', async () => {
    const { LinuxLiveStackSource } = (await import(`${REPO_ROOT}dist/native/linux/live-stack-source.js`)) as typeof SourceModule;
    const result: LiveStackResult = await new LinuxLiveStackSource({ deadlineMs: 1, path: pathWith('gdb') }).liveStack(sleeper);
    expect(result).toMatchObject({ kind: 'unavailable', tool: 'gdb', reason: 'gdb took longer than 1 ms and was ended' });
    expect(state(sleeper)).toBe('S');
  });

  it('at the deadline a process the user had stopped (SIGSTOP) stays stopped', async () => {
    const { LinuxLiveStackSource } = (await import(`${REPO_ROOT}dist/native/linux/live-stack-source.js`)) as typeof SourceModule;
    const stopped = spawn('sleep', ['1000'], { stdio: 'ignore' });
    children.push(stopped);
    stopped.kill('SIGSTOP');
    while (state(stopped.pid!) !== 'T') await new Promise((resolve) => setTimeout(resolve, 10));
    const result: LiveStackResult = await new LinuxLiveStackSource({ deadlineMs: 1, path: pathWith('gdb') }).liveStack(stopped.pid!);
    expect(result).toMatchObject({ kind: 'unavailable', tool: 'gdb', reason: 'gdb took longer than 1 ms and was ended' });
    expect(state(stopped.pid!)).toBe('T');
  });

  it.runIf(process.getuid?.() === 0)("another user's process: one line saying ptrace permission is needed, exit 1", async () => {
    const run = await runCli(['stack', String(sleeper)], { asUser: 'nobody' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^holdwatch: needs ptrace permission for pid \d+ \(gdb was refused\); run as the same user or root[^\n]*\n$/);
  });
});

describe.skipIf(!which('eu-stack'))('eu-stack', () => {
  it('is used when gdb is absent, with module and source line', async () => {
    const run = await runCli(['stack', String(sleeper), '--json'], { env: { PATH: pathWith('eu-stack') } });
    expect(run.code, run.stderr).toBe(0);
    const stack = JSON.parse(run.stdout) as LiveStack;
    expect(stack.tool).toBe('eu-stack');
    const main = stack.threads[0]!.frames.find((f) => f.function === 'main');
    expect(main).toMatchObject({ module: join(scratch, 'sleeper'), line: 4 });
    expect(functions(stack).findIndex((n) => /nanosleep/.test(n))).toBeLessThan(functions(stack).indexOf('main'));
  });
});

it('no tool on PATH: exit 1 and one line naming what to install', async () => {
  const run = await runCli(['stack', String(sleeper)], { env: { PATH: pathWith() } });
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(
    'holdwatch: no stack tool found on PATH (gdb, eu-stack); install gdb (apt-get install gdb) or elfutils for eu-stack (apt-get install elfutils)\n',
  );
  const py = await runCli(['stack', String(python)], { env: { PATH: pathWith() } });
  expect(py.stderr).toMatch(/^holdwatch: no stack tool found on PATH \(py-spy, gdb, eu-stack\); install py-spy \(pip install py-spy\) or gdb/);
});

it('bad pids: exit 2 with one line', async () => {
  for (const [arg, message] of [
    ['abc', 'expected a process id, got "abc"'],
    ['0', 'expected a process id, got "0"'],
    ['4194305', 'no process with pid 4194305'],
  ]) {
    const run = await runCli(['stack', arg!]);
    expect([run.code, run.stderr], arg).toEqual([2, `holdwatch: ${message}\n`]);
  }
});

it('--started-at: a process that did not start then is refused before anything attaches; a bad value too', async () => {
  const startedAtMs = Math.round(Date.now() - 3_600_000);
  const wrong = await runCli(['stack', String(sleeper), '--started-at', String(startedAtMs)]);
  expect([wrong.code, wrong.stderr]).toEqual([2, `holdwatch: process ${sleeper} has already exited (its pid now belongs to another process)\n`]);
  const bad = await runCli(['stack', String(sleeper), '--started-at', 'soon']);
  expect([bad.code, bad.stderr]).toEqual([2, 'holdwatch: expected a start time in ms since the epoch, got "soon"\n']);
});

// A live stack is taken of the process that was asked for, not of whoever holds its pid by then
// (reliability-2.md F2: the UI checked the identity, then started `holdwatch stack <pid>` with the pid
// alone; a reused pid gave another process's stack 5 of 5 times). `--started-at` carries the identity
// into the process that attaches: a process that did not start then is refused before anything attaches.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readStat } from '../../native/linux/proc-stat.js';
import { runCli } from '../support/cli.js';

/** The process's start time as holdwatch dates it. */
const startedAtMs = (pid: number) => readStat(pid).startedAtMs;

let sleeper: ChildProcess;

beforeAll(async () => {
  sleeper = spawn('/usr/bin/python3', ['-c', 'import time\nprint("ready", flush=True)\ntime.sleep(1000)'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => sleeper.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
});
afterAll(() => sleeper.kill('SIGKILL'));

describe('holdwatch stack --started-at', () => {
  it('refuses a pid whose process did not start at the time given, before attaching', async () => {
    const pid = sleeper.pid!;
    const wrong = await runCli(['stack', String(pid), '--started-at', String(startedAtMs(pid) - 3_600_000)]);
    expect([wrong.code, wrong.stderr]).toEqual([2, `holdwatch: process ${pid} has already exited (its pid now belongs to another process)\n`]);
    expect(/^TracerPid:\s+0$/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))).toBe(true);
  });

  it('takes the stack of the process that did start then', async () => {
    const pid = sleeper.pid!;
    const right = await runCli(['stack', String(pid), '--started-at', String(startedAtMs(pid)), '--json']);
    expect(right.stderr).toBe('');
    expect(right.code).toBe(0);
    expect((JSON.parse(right.stdout) as { pid: number }).pid).toBe(pid);
  });

  it('refuses a start time that is not one', async () => {
    const bad = await runCli(['stack', String(sleeper.pid!), '--started-at', 'soon']);
    expect([bad.code, bad.stderr]).toEqual([2, 'holdwatch: expected a start time in ms since the epoch, got "soon"\n']);
  });
});

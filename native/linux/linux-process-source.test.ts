// The process list with real processes: a list asked for with `fresh: false` stands while
// /proc/loadavg says no task was created or reaped since (its reading is handed in here, so the test
// decides when it moves; another session's processes move the real one at any time), and is read
// again as soon as it moves.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { LinuxProcessSource } from './linux-process-source.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe.skipIf(process.platform !== 'linux')('LinuxProcessSource.listProcesses', () => {
  it('with fresh: false, lists /proc again only once the task count or last pid moved', async () => {
    let loadavg = readFileSync('/proc/loadavg', 'latin1');
    const source = new LinuxProcessSource(() => loadavg);
    await source.listProcesses({ fresh: true });
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(child);
    const listed = async (fresh: boolean) => (await source.listProcesses({ fresh })).some((p) => p.pid === child.pid);
    expect(await listed(false)).toBe(false); // the marker stood: the last list stands
    loadavg = loadavg.replace(/ (\d+)\s*$/, (_m, last: string) => ` ${Number(last) + 1}\n`);
    expect(await listed(false)).toBe(true);
  });

  it('with fresh: true, always lists /proc', async () => {
    const source = new LinuxProcessSource(() => '0.00 0.00 0.00 1/100 4242\n');
    await source.listProcesses({ fresh: true });
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(child);
    expect((await source.listProcesses({ fresh: true })).some((p) => p.pid === child.pid)).toBe(true);
  });
});

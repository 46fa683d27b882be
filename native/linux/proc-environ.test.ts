// Real processes inside real execs: a read of /proc/<pid>/environ that meets an exec half done (the
// file empty) is asked again until the new image's environment is there.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { findVariable, readSettledEnviron } from './proc-environ.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const read = (pid: number, file: string) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return null;
  }
};

describe.skipIf(process.platform !== 'linux')('readSettledEnviron', () => {
  it('reads the environment of a process met inside an exec, where a plain read finds none', async () => {
    const tag = 'HOLDWATCH_ENVIRON_TEST';
    let emptyMeetings = 0;
    const settled: (string | null)[] = [];
    // Three execs a process (sh, setsid, sh, sleep), as a launcher's `setsid bash script &` does; each
    // meeting with an empty plain read is one test of the settled read.
    for (let trial = 0; trial < 400 && emptyMeetings < 5; trial++) {
      const child = spawn('sh', ['-c', 'exec setsid sh -c "exec sleep 30"'], { stdio: 'ignore', env: { ...process.env, [tag]: 'kept' } });
      children.push(child);
      const pid = child.pid!;
      while (!read(pid, 'cmdline')?.startsWith('sleep')) {
        if (read(pid, 'environ') !== '') continue;
        emptyMeetings++;
        const environ = await readSettledEnviron(pid);
        settled.push(environ === null ? null : findVariable(environ, tag));
      }
      child.kill('SIGKILL');
    }
    expect(emptyMeetings, 'no read met an exec half done: the case tested nothing').toBeGreaterThan(0);
    expect(settled.every((value) => value === 'kept')).toBe(true);
  }, 60_000);

  it('reads an empty environment as empty: one exec’d with none, a kernel thread', async () => {
    const child = spawn('env', ['-i', 'sleep', '30'], { stdio: 'ignore' });
    children.push(child);
    while (!read(child.pid!, 'cmdline')?.startsWith('sleep')) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await readSettledEnviron(child.pid!)).toBe('');
    // Kernel threads have no memory to read it from: empty, or refused as if gone, by kernel version.
    expect(['', null]).toContain(await readSettledEnviron(2));
  });

  it('reads a gone process as null', async () => {
    const child = spawn('true', { stdio: 'ignore' });
    const pid = child.pid!;
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await readSettledEnviron(pid)).toBeNull();
  });
});

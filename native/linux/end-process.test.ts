import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endLinuxProcessIfSame } from './end-process.js';
import { readStat } from './proc-stat.js';

function sleeper() {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  return { child, exited };
}

describe('endLinuxProcessIfSame', () => {
  it('leaves a process alone when its start time is not the one seen (a reused pid), and ends it when it is', async () => {
    const { child, exited } = sleeper();
    try {
      const pid = child.pid!;
      const started = readStat(pid).startedAtMs;
      expect(endLinuxProcessIfSame(pid, started - 60_000)).toBe('gone');
      expect(endLinuxProcessIfSame(pid, started + 1_000)).toBe('gone');
      expect(child.exitCode === null && child.signalCode === null).toBe(true);
      expect(readStat(pid).startedAtMs).toBe(started); // still there, not signalled
      expect(endLinuxProcessIfSame(pid, started)).toBe('ended');
      await expect(exited).resolves.toBe('SIGTERM');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('says gone for a pid no process has', () => {
    expect(endLinuxProcessIfSame(2 ** 22 + 7, 0)).toBe('gone');
  });
});

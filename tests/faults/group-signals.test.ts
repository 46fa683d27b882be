// A signal sent to the whole process group of a `holdwatch run` with no terminal (CI cancelling a job,
// `timeout`, `kill -INT -<pgid>`) reaches the command once, not once from the group and again from
// holdwatch's forwarding (shared/reviews/reliability-2.md "Scale": a 210-line KeyboardInterrupt). A
// signal sent to holdwatch alone still reaches the command once, forwarded.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO_ROOT } from '../support/cli.js';

let watched: string;
beforeAll(() => void (watched = mkdtempSync(join(tmpdir(), 'hw-group-signals-'))));
afterAll(() => rmSync(watched, { recursive: true, force: true }));

// Counts each SIGINT/SIGTERM it gets, says when it is ready, and exits 3 a second after the first.
const COUNTER = `
import signal, sys, time
got = []
def on(sig, _frame):
    got.append(signal.Signals(sig).name)
signal.signal(signal.SIGINT, on)
signal.signal(signal.SIGTERM, on)
print("ready", flush=True)
while not got:
    time.sleep(0.01)
time.sleep(1)
print("got " + ",".join(got), flush=True)
sys.exit(3)
`;

/** Runs the counter under holdwatch, in a process group of its own, with no terminal; `send` signals it once ready. */
function runCounter(send: (holdwatchPid: number) => void): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [CLI, 'run', '--quiet', '--watch', watched, '--', '/usr/bin/python3', '-c', COUNTER], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!sent && stdout.includes('ready\n')) {
      sent = true;
      send(child.pid!);
    }
  });
  child.stderr.resume();
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('signals to a run with no terminal', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s sent to the whole group reaches the command once', async (signal) => {
    const run = await runCounter((pid) => process.kill(-pid, signal));
    expect(run.stdout).toContain(`got ${signal}\n`);
    expect(run.code).toBe(3);
  });

  it('SIGINT sent to holdwatch alone is forwarded to the command, once', async () => {
    const run = await runCounter((pid) => process.kill(pid, 'SIGINT'));
    expect(run.stdout).toContain('got SIGINT\n');
    expect(run.code).toBe(3);
  });
});

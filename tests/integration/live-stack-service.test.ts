// The service's live stack (what the details panel calls, in both hosts) against a real sleeping
// python3: frames from gdb or eu-stack, the process left running; a reused pid refused; no tool
// gives the sentence naming what to install; a malformed request is a ContractError, not a crash.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapturedLiveStack } from '../../contract/live-stack.js';
import { ContractError, dispatchRequest } from '../../contract/service-client.js';
import { captureLiveStackInWorker } from '../../dist/host/session/live-stack-capture.js';
import type { HostSession } from '../../dist/host/session/host-session.js';
import { scratchSession } from '../support/scratch-session.js';

let scratch: string;
let session: HostSession;
let python: ChildProcess;
let startedAtMs: number;

const state = (pid: number) => /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-live-stack-'));
  session = scratchSession(scratch);
  python = spawn('python3', ['-c', 'import time\nprint("ready", flush=True)\ntime.sleep(1000)'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    python.on('exit', (code) => reject(new Error(`python3 exited early (${code})`)));
    python.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
  });
  startedAtMs = (await session.getProcessDetails(python.pid!))!.process.startedAtMs;
});

afterAll(async () => {
  python?.kill('SIGKILL');
  await session?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

describe('captureLiveStack', () => {
  it('gives a sleeping python3 real frames and its text, and leaves it running', async () => {
    const result = await session.captureLiveStack({ pid: python.pid!, startedAtMs });
    expect(result.kind, JSON.stringify(result)).toBe('stack');
    const stack = result as Extract<CapturedLiveStack, { kind: 'stack' }>;
    expect(['gdb', 'eu-stack']).toContain(stack.tool);
    const functions = stack.threads.flatMap((t) => t.frames.map((f) => f.function));
    expect(functions.some((f) => /clock_nanosleep|select|poll/.test(f))).toBe(true);
    expect(stack.text).toMatch(new RegExp(`^thread ${python.pid}`, 'm'));
    expect(stack.text).toMatch(/nanosleep|select|poll/);
    expect(stack.note).toMatch(/py-spy/); // native frames only: says what py-spy would add
    expect(stack.dumpPath).toBeUndefined(); // Linux writes nothing
    expect(state(python.pid!)).toBe('S'); // the tracer detached
  });

  it('refuses a pid whose start time differs (a reused pid), without attaching', async () => {
    await expect(session.captureLiveStack({ pid: python.pid!, startedAtMs: startedAtMs - 60_000 })).rejects.toThrow(`process ${python.pid} has already exited`);
  });

  // The review's F2: the host checked the identity, then started the worker with the pid alone; a pid
  // reused during the worker's start-up got its new owner's stack. The worker now checks it itself:
  // handed an identity the pid's process does not have, it refuses instead of attaching.
  it('the worker refuses a pid whose process is not the one asked for (reused after the host checked)', async () => {
    const options = { dataDir: join(scratch, 'data'), env: process.env };
    await expect(captureLiveStackInWorker(python.pid!, startedAtMs - 60_000, options)).rejects.toThrow(
      `process ${python.pid} has already exited (its pid now belongs to another process)`,
    );
    expect(state(python.pid!)).toBe('S'); // never attached: not left stopped
  });

  it('answers what is missing when no tool is on PATH', async () => {
    const savedPath = process.env.PATH;
    const empty = join(scratch, 'empty-bin');
    mkdirSync(empty, { recursive: true });
    process.env.PATH = empty; // the worker is started by absolute path; the tools are looked up on PATH
    try {
      const result = await session.captureLiveStack({ pid: python.pid!, startedAtMs });
      expect(result).toMatchObject({
        kind: 'unavailable',
        reason: 'no stack tool found on PATH (py-spy, gdb, eu-stack)',
        nextStep: expect.stringMatching(/install py-spy .* or gdb/),
      });
    } finally {
      process.env.PATH = savedPath;
    }
  });

  it('ends a worker that passes its deadline and says so; the target runs on', async () => {
    const result = await captureLiveStackInWorker(python.pid!, startedAtMs, { dataDir: join(scratch, 'data'), env: process.env, deadlineMs: 1 });
    expect(result).toMatchObject({
      kind: 'unavailable',
      reason: 'the capture took longer than 1 ms and was ended',
      nextStep: `run \`holdwatch stack ${python.pid}\` in a terminal to see where it stops`,
    });
    expect(state(python.pid!)).toBe('S');
  });

  // A process the user stopped (Ctrl-Z, SIGSTOP) is theirs to resume: a capture ended mid-walk resumes
  // only a process it found running.
  it('a capture ended by its page leaves a process the user had stopped stopped', async () => {
    const sleeper = spawn('sleep', ['1000'], { stdio: 'ignore' });
    try {
      sleeper.kill('SIGSTOP');
      while (state(sleeper.pid!) !== 'T') await new Promise((resolve) => setTimeout(resolve, 10));
      const sleeperStartedAtMs = (await session.getProcessDetails(sleeper.pid!))!.process.startedAtMs;
      const pageGone = new AbortController();
      setTimeout(() => pageGone.abort(), 50);
      const result = await session.captureLiveStack({ pid: sleeper.pid!, startedAtMs: sleeperStartedAtMs }, { signal: pageGone.signal });
      expect(result).toMatchObject({ kind: 'unavailable', reason: 'the capture was ended: the page that asked for it is gone' });
      expect(state(sleeper.pid!)).toBe('T');
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('through the contract: a malformed request is a ContractError and never reaches the tools', async () => {
    for (const request of [{ pid: python.pid }, { pid: String(python.pid), startedAtMs }, { pid: python.pid, startedAtMs, argv: ['gdb'] }, null]) {
      await expect(dispatchRequest(session, 'captureLiveStack', request)).rejects.toBeInstanceOf(ContractError);
    }
  });
});

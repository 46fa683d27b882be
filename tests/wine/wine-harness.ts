// Drives the suite's Windows node.exe: under Wine from Linux, or natively on Windows (host.ts picks;
// windows-host.ts says what differs). Children report through files (Wine's node.exe fails with EBADF
// on Linux pipes); each carries a run marker, so teardown ends exactly ours.
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import { host } from './host.js';
import type { WindowsEnv } from './windows-host.js';

import { REPO } from './windows-host.js';
import { winPath } from './host.js';

export { REPO, type WindowsEnv } from './windows-host.js';
export { host, underWine, winPath } from './host.js';

/** How the host's shared state is doing (Wine: its wineserver), for failure messages. */
export const hostSummary = (): string => host.summary();

/** Prepares the host (Wine: the prefix, a persistent wineserver; natively: nothing to start). */
export function prepareWindows(runId: string): WindowsEnv {
  return host.prepare(runId);
}

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** For a failure message: how it ended and after how long, the host's state, and both outputs' ends. */
  story: string;
}

export class WindowsProcesses {
  private readonly children = new Set<ChildProcess>();
  /** How each child ended, in order: "name: code 0 after 812 ms" (failure messages). */
  readonly exits: string[] = [];

  constructor(
    private readonly windows: WindowsEnv,
    private readonly scratch: string,
  ) {}

  /** Starts node.exe with `args`, stdio in files under the scratch dir. */
  start(name: string, args: string[]): { child: ChildProcess; logs: { out: string; err: string }; flushed: Promise<void> } {
    const started = host.spawnNode(this.windows, args, { out: join(this.scratch, `${name}.out`), err: join(this.scratch, `${name}.err`) });
    const { child } = started;
    this.children.add(child);
    const startedAt = Date.now();
    child.on('exit', (code, signal) => {
      this.children.delete(child);
      this.exits.push(`${name}: ${signal ? `signal ${signal}` : `code ${code}`} after ${Date.now() - startedAt} ms`);
    });
    return started;
  }

  /** Runs node.exe to completion. */
  async run(name: string, args: string[], timeoutMs = 120_000): Promise<NodeRun> {
    const { child, logs, flushed } = this.start(name, args);
    const startedAt = Date.now();
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (c) => {
        clearTimeout(timer);
        done(c);
      });
    });
    await flushed;
    const stdout = readFileSync(logs.out, 'utf8');
    const stderr = readFileSync(logs.err, 'utf8');
    const story = `${name}: code ${code} after ${Date.now() - startedAt} ms (${hostSummary()}); stderr: ${stderr.slice(-2000)}; stdout: ${stdout.slice(-1000)}`;
    return { code, stdout, stderr, story };
  }

  /** Starts tests/wine/fixtures/holder.mjs holding `specs` (released by `<scratch>/release`); its pid once it holds them. */
  async startHolder(name: string, specs: string[]): Promise<number> {
    const ready = join(this.scratch, `${name}.ready`);
    const { child, logs } = this.start(name, [
      winPath(join(REPO, 'tests', 'wine', 'fixtures', 'holder.mjs')),
      winPath(ready),
      winPath(join(this.scratch, 'release')),
      ...specs,
    ]);
    return (JSON.parse(await waitForFile(ready, child, logs.err)) as { pid: number }).pid;
  }

  /** The 8.3 form of a path, as cmd's `%~sI` gives it (Wine makes aliases like `HOLD~DZX`). No spaces in `path`. */
  async shortPathName(path: string): Promise<string> {
    return host.shortPathName(this.windows, path, this.scratch);
  }

  /** Ctrl-C to a child, as a terminal sends it. */
  interrupt(child: ChildProcess): Promise<void> {
    return host.interrupt(child, this.windows);
  }

  /** Ends every process of this run: the ones we spawned and any they spawned. */
  killAll(): void {
    const live = [...this.children].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
    host.killRun(this.windows, live);
  }

  /** Ends the host's shared state (Wine: the prefix's wineserver, waited for, so the next suite starts its own). */
  stopHost(): void {
    host.stop(this.windows);
  }
}

/** Waits for a file a Windows child writes when ready; fails with the child's stderr if it died. */
export async function waitForFile(path: string, child: ChildProcess, errLog: string, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.length > 0) return text;
    }
    if (child.exitCode !== null)
      throw new Error(`Windows child exited ${child.exitCode} before ${path} (${hostSummary()}): ${readFileSync(errLog, 'utf8').slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${path}`);
}

/** Polls `condition` (reading files a Windows child writes) until true; fails with `errLog`'s text on timeout. */
export async function waitFor(condition: () => boolean, errLog: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; the child's stderr says: ${existsSync(errLog) ? readFileSync(errLog, 'utf8').slice(0, 2000) : '(nothing)'}`);
}

/** A describe block's Windows: host ready and a scratch dir before its tests; its processes ended and the dir removed after. */
export function useWindowsScratch(name: string): { wine: WindowsEnv; procs: WindowsProcesses; scratch: string } {
  const suite = {} as { wine: WindowsEnv; procs: WindowsProcesses; scratch: string };
  beforeAll(() => {
    suite.wine = prepareWindows(`${name}-${process.pid}-${Date.now()}`);
    suite.scratch = host.makeScratch(`holdwatch-wine-${name}-`);
    suite.procs = new WindowsProcesses(suite.wine, suite.scratch);
  }, 300_000);
  afterAll(() => {
    suite.procs?.killAll();
    suite.procs?.stopHost();
    if (suite.scratch) rmSync(suite.scratch, { recursive: true, force: true });
  });
  return suite;
}

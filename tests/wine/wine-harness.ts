// Drives Windows node.exe under Wine from a Linux test. Wine's node.exe fails with EBADF on Linux
// pipes, so every child gets files for stdio and reports through files. Every process started here
// carries a run marker in its environment, so teardown ends exactly ours (grandchildren included),
// then `wineserver -k` as a second line of defence.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { join, resolve } from 'node:path';
import { readStat } from '../../native/linux/proc-stat.js';

export const REPO = resolve(import.meta.dirname, '..', '..');
const RUN_MARKER = 'HOLDWATCH_WINE_TEST_RUN';
/** The prefix prepareWine() set up last: failure messages say how its wineserver is doing. */
let currentPrefix: string | null = null;

/** Pids whose environment holds `pair` (NAME=value); processes gone meanwhile or not ours to read are skipped. */
function pidsWithEnv(pair: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(pair)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/**
 * The wineserver(s) serving `prefix` (comm `wineserver64` on Debian), as "pid (started <time>)", for
 * failure messages: a pair of tests once failed together (holders gone, a new holder "exited 0" at
 * once), which a wineserver dying and a new one starting would explain.
 */
export function wineserverSummary(prefix = currentPrefix): string {
  if (prefix === null) return 'no Wine prefix prepared';
  const servers = pidsWithEnv(`WINEPREFIX=${prefix}`).flatMap((pid) => {
    try {
      const stat = readStat(pid);
      return stat.name.startsWith('wineserver') ? [`${pid} (started ${new Date(stat.startedAtMs).toISOString()})`] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
  return servers.length ? `wineserver ${servers.join(', ')}` : `no wineserver running${serverLogTail()}`;
}

export interface WineEnv {
  cache: string;
  nodeExe: string;
  env: NodeJS.ProcessEnv;
}

/** `/tmp/x` -> `Z:\tmp\x` (Wine maps the Linux root to drive Z:). */
export function toWine(linuxPath: string): string {
  return `Z:${linuxPath.replace(/\//g, '\\')}`;
}

export function wineAvailable(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v wine && command -v wineserver'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The wineserver the suite runs: scripts/wine-setup.sh's copy with Wine 8.0's empty-handle-table crash
 * fixed (scripts/patch-wineserver.mjs), else the system's. Every wine process started with
 * WINESERVER set starts this one too, should none be running.
 */
function wineserverProgram(env: NodeJS.ProcessEnv): string {
  return env.WINESERVER ?? 'wineserver';
}

/**
 * A wineserver for the prefix that stays until stopWineserver(). By default wineserver quits 3 s after
 * its last process, and a process started while it shuts down dies at once (exit 0, no output: "wine
 * child exited 0 before ... (no wineserver running)"). `wineserver -p` makes only a server it starts
 * persistent: when one already runs (the last suite's, just told to end by `-k` and still ending), it
 * changes nothing, the old one goes, and the next process starts a server that idles out. So such a
 * server is ended and waited for first. The prefix is holdwatch's own (in its cache), not the user's.
 */
function startPersistentWineserver(env: NodeJS.ProcessEnv): void {
  // The server keeps the stderr it was started with: what it says before it goes is in this log.
  serverLog = `${env.WINEPREFIX}.wineserver.log`;
  const log = openSync(serverLog, 'w');
  try {
    // With core dumps on: a crash ("wineserver crashed, please enable coredumps") leaves a core in the
    // server's directory (/tmp/.wine-<uid>/server-*) for gdb.
    const server = (args: string[]) =>
      execFileSync('sh', ['-c', 'ulimit -c unlimited 2>/dev/null; exec "$0" "$@"', wineserverProgram(env), ...args], {
        env,
        stdio: ['ignore', log, log],
        timeout: 30_000,
      });
    try {
      server(['-p']);
      return;
    } catch {
      // One runs already, persistent or not: replace it.
    }
    try {
      server(['-k']);
    } catch {
      // it ended meanwhile
    }
    server(['-w']);
    server(['-p']);
  } finally {
    closeSync(log);
  }
}

let serverLog: string | null = null;

/** The last lines the wineserver wrote, for the message when it is found gone. */
function serverLogTail(): string {
  if (serverLog === null || !existsSync(serverLog)) return '';
  const tail = readFileSync(serverLog, 'utf8').trim().split('\n').slice(-3).join(' | ');
  return tail ? ` (its log ${serverLog}: ${tail.slice(0, 400)})` : ` (its log ${serverLog} is empty: no message, so likely ended by a signal)`;
}

/** Runs scripts/wine-setup.sh (idempotent; ~15-40 s from nothing, instant when cached). */
export function prepareWine(runId: string): WineEnv {
  const out = execFileSync('bash', [join(REPO, 'scripts', 'wine-setup.sh')], { encoding: 'utf8', timeout: 240_000, stdio: ['ignore', 'pipe', 'inherit'] });
  const cache = out.trim().split('\n').pop()!;
  const patched = join(cache, 'wineserver64');
  const server = existsSync(patched) ? { WINESERVER: patched } : {};
  const env = { ...process.env, WINEPREFIX: join(cache, 'prefix'), WINEDEBUG: '-all', ...server };
  currentPrefix = env.WINEPREFIX;
  startPersistentWineserver(env);
  return {
    cache,
    nodeExe: join(cache, 'node-20.20.2', 'node.exe'),
    env: {
      ...process.env,
      ...server,
      WINEPREFIX: join(cache, 'prefix'),
      WINEDEBUG: '-all',
      WINEDLLOVERRIDES: 'mscoree,mshtml=',
      // koffi's loader requires @koromix/koffi-win32-x64; the repo only has the linux package.
      NODE_PATH: `${toWine(join(cache, 'koffi', 'node_modules'))}`,
      [RUN_MARKER]: runId,
    },
  };
}

export interface WineRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export class WineProcesses {
  private readonly children = new Set<ChildProcess>();
  /** How each child ended, in order: "name: code 0 after 812 ms" (failure messages). */
  readonly exits: string[] = [];

  constructor(
    private readonly wine: WineEnv,
    private readonly scratch: string,
  ) {}

  /** Starts node.exe with `args`, stdio in files under the scratch dir. */
  start(name: string, args: string[]): { child: ChildProcess; logs: { out: string; err: string } } {
    const logs = { out: join(this.scratch, `${name}.out`), err: join(this.scratch, `${name}.err`) };
    const out = openSync(logs.out, 'w');
    const err = openSync(logs.err, 'w');
    const input = openSync('/dev/null', 'r');
    try {
      const child = spawn('wine', [this.wine.nodeExe, ...args], { env: this.wine.env, stdio: [input, out, err], cwd: REPO });
      this.children.add(child);
      const started = Date.now();
      child.on('exit', (code, signal) => {
        this.children.delete(child);
        this.exits.push(`${name}: ${signal ? `signal ${signal}` : `code ${code}`} after ${Date.now() - started} ms`);
      });
      return { child, logs };
    } finally {
      closeSync(out);
      closeSync(err);
      closeSync(input);
    }
  }

  /** Runs node.exe to completion. */
  async run(name: string, args: string[], timeoutMs = 120_000): Promise<WineRun> {
    const { child, logs } = this.start(name, args);
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('exit', (c) => {
        clearTimeout(timer);
        done(c);
      });
    });
    return { code, stdout: readFileSync(logs.out, 'utf8'), stderr: readFileSync(logs.err, 'utf8') };
  }

  /** The 8.3 form of a path, as cmd's `%~sI` gives it (Wine makes aliases like `HOLD~DZX`). No spaces in `path`. */
  async shortPathName(path: string): Promise<string> {
    const out = join(this.scratch, `short-${this.children.size}-${Date.now()}.txt`);
    const fd = openSync(out, 'w');
    const input = openSync('/dev/null', 'r');
    try {
      execFileSync('wine', ['cmd', '/c', `for %I in (${path}) do @echo %~sI`], { env: this.wine.env, stdio: [input, fd, 'ignore'], timeout: 60_000 });
    } finally {
      closeSync(fd);
      closeSync(input);
    }
    return readFileSync(out, 'utf8').trim();
  }

  /** Ends every process of this run: the ones we spawned and any they spawned (marker in environ). */
  killAll(): void {
    for (const child of this.children) child.kill('SIGKILL');
    for (const pid of pidsWithEnv(`${RUN_MARKER}=${this.wine.env[RUN_MARKER]}`)) {
      if (pid === process.pid) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }

  /** Ends the prefix's wineserver and waits until it is gone, so the next suite starts its own. */
  stopWineserver(): void {
    try {
      execFileSync(wineserverProgram(this.wine.env), ['-k'], { env: this.wine.env, stdio: 'ignore', timeout: 20_000 });
    } catch {
      // already stopped: `wineserver -k` answers 1 when there is nothing to end
    }
    execFileSync(wineserverProgram(this.wine.env), ['-w'], { env: this.wine.env, stdio: 'ignore', timeout: 30_000 });
  }
}

/** Waits for a file a Wine child writes when ready; fails with the child's stderr if it died. */
export async function waitForFile(path: string, child: ChildProcess, errLog: string, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.length > 0) return text;
    }
    if (child.exitCode !== null)
      throw new Error(`wine child exited ${child.exitCode} before ${path} (${wineserverSummary()}): ${readFileSync(errLog, 'utf8').slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${path}`);
}

/** Polls `condition` (reading files a Wine child writes) until true; fails with `errLog`'s text on timeout. */
export async function waitFor(condition: () => boolean, errLog: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out; the child's stderr says: ${existsSync(errLog) ? readFileSync(errLog, 'utf8').slice(0, 2000) : '(nothing)'}`);
}

/** A describe block's Wine: prefix ready and a scratch dir before its tests; its processes ended and the dir removed after. */
export function useWineScratch(name: string): { wine: WineEnv; procs: WineProcesses; scratch: string } {
  const suite = {} as { wine: WineEnv; procs: WineProcesses; scratch: string };
  beforeAll(() => {
    suite.wine = prepareWine(`${name}-${process.pid}-${Date.now()}`);
    suite.scratch = mkdtempSync(`/tmp/holdwatch-wine-${name}-`);
    suite.procs = new WineProcesses(suite.wine, suite.scratch);
  }, 300_000);
  afterAll(() => {
    suite.procs?.killAll();
    suite.procs?.stopWineserver();
    if (suite.scratch) rmSync(suite.scratch, { recursive: true, force: true });
  });
  return suite;
}

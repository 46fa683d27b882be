// The suite's Windows under Wine, from Linux. Wine's node.exe fails with EBADF on Linux pipes, so every
// child gets files for stdio. Teardown ends exactly our processes (grandchildren included: they carry
// the run marker in their environment), then `wineserver -k` as a second line of defence.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readStat } from '../../native/linux/proc-stat.js';
import { REPO, RUN_MARKER, type StartedNode, type WindowsEnv, type WindowsHost } from './windows-host.js';

/** The Windows node.exe scripts/wine-setup.sh fetches: its NODE_WIN_VERSION, said there once. */
const NODE_WIN_VERSION = /^NODE_WIN_VERSION=(\S+)$/m.exec(readFileSync(join(REPO, 'scripts', 'wine-setup.sh'), 'utf8'))![1]!;

/** `/tmp/x` -> `Z:\tmp\x` (Wine maps the Linux root to drive Z:). */
export function toWine(linuxPath: string): string {
  return `Z:${linuxPath.replace(/\//g, '\\')}`;
}

/** The prefix prepare() set up last: failure messages say how its wineserver is doing. */
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
 * A wineserver for the prefix that stays until stop(). By default wineserver quits 3 s after
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
function prepareWine(runId: string): WindowsEnv {
  const out = execFileSync('bash', [join(REPO, 'scripts', 'wine-setup.sh')], { encoding: 'utf8', timeout: 240_000, stdio: ['ignore', 'pipe', 'inherit'] });
  const cache = out.trim().split('\n').pop()!;
  const patched = join(cache, 'wineserver64');
  const server = existsSync(patched) ? { WINESERVER: patched } : {};
  const env = { ...process.env, WINEPREFIX: join(cache, 'prefix'), WINEDEBUG: '-all', ...server };
  currentPrefix = env.WINEPREFIX;
  startPersistentWineserver(env);
  return {
    nodeExe: join(cache, `node-${NODE_WIN_VERSION}`, 'node.exe'),
    koffiBinary: join(cache, 'koffi', 'node_modules', '@koromix', 'koffi-win32-x64', 'win32_x64', 'koffi.node'),
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

function startUnderWine(wine: WindowsEnv, args: string[], logs: { out: string; err: string }): StartedNode {
  const out = openSync(logs.out, 'w');
  const err = openSync(logs.err, 'w');
  const input = openSync('/dev/null', 'r');
  try {
    const child = spawn('wine', [wine.nodeExe, ...args], { env: wine.env, stdio: [input, out, err], cwd: REPO });
    return { child, logs, flushed: Promise.resolve() }; // the child writes its files itself
  } finally {
    closeSync(out);
    closeSync(err);
    closeSync(input);
  }
}

export const wineHost: WindowsHost = {
  kind: 'wine',
  where: 'under Wine',
  missing: () => (wineAvailable() ? null : 'wine is not installed (npm run wine:setup installs it as root; CI=1 makes this a failure)'),
  prepare: prepareWine,
  toWindows: toWine,
  fromWindows: (path, wine) => path.replace(/^C:\\/i, `${wine.env.WINEPREFIX}/drive_c/`).replace(/^Z:\\/i, '/').replace(/\\/g, '/'),
  makeScratch: (prefix) => mkdtempSync(`/tmp/${prefix}`),
  spawnNode: startUnderWine,

  shortPathName(wine, path, scratch) {
    const out = join(scratch, `short-${process.hrtime.bigint()}.txt`);
    const fd = openSync(out, 'w');
    const input = openSync('/dev/null', 'r');
    try {
      execFileSync('wine', ['cmd', '/c', `for %I in (${path}) do @echo %~sI`], { env: wine.env, stdio: [input, fd, 'ignore'], timeout: 60_000 });
    } finally {
      closeSync(fd);
      closeSync(input);
    }
    return readFileSync(out, 'utf8').trim();
  },

  spellings: (dir) => [toWine(dir), toWine(dir).replace(/\\/g, '/'), `\\\\?\\${toWine(dir)}`, `/z${dir}`, dir],

  // SIGINT to the Wine process arrives in node.exe as Ctrl-C (SIGTERM would end it abruptly).
  interrupt: async (child) => void child.kill('SIGINT'),

  killRun(wine, spawned) {
    const ours = new Set([...spawned, ...pidsWithEnv(`${RUN_MARKER}=${wine.env[RUN_MARKER]}`)]);
    for (const pid of ours) {
      if (pid === process.pid) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  },

  /** Ends the prefix's wineserver and waits until it is gone, so the next suite starts its own. */
  stop(wine) {
    try {
      execFileSync(wineserverProgram(wine.env), ['-k'], { env: wine.env, stdio: 'ignore', timeout: 20_000 });
    } catch {
      // already stopped: `wineserver -k` answers 1 when there is nothing to end
    }
    execFileSync(wineserverProgram(wine.env), ['-w'], { env: wine.env, stdio: 'ignore', timeout: 30_000 });
  },

  summary: () => wineserverSummary(),
};

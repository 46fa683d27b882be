// A page's watches die with the page (reliability-2.md F6): each reload of the UI, each closed tab, left
// its watch scanning for no one (threads 11 -> 31, RSS 162 -> 425 MB after 20 closed sockets). The
// real session behind the real web host: a watch started over a WebSocket is stopped when that
// WebSocket closes, or when it stops answering pings (a machine asleep, an SSH tunnel gone). So does
// the rest of what a page starts: a terminal run it follows (a journal fd and timers in the host) and a
// live stack being captured (a `holdwatch stack` worker and the gdb attached to the target).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RENDERER_DIR } from '../../dist/host/install-paths.js';
import type { HostSession } from '../../dist/host/session/host-session.js';
import { startUiServer, type UiServer } from '../../dist/host/web/ui-server.js';
import { startCli } from '../support/cli.js';
import { scratchSession } from '../support/scratch-session.js';

let scratch: string;
let watched: string;
let session: HostSession;
let server: UiServer;
/** Full scans reported per watch, whoever started it. */
const scans = new Map<string, number>();
/** The watches the web host has stopped, and stopped in the session. */
const stopped = new Set<string>();

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-page-watches-'));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
  session = scratchSession(scratch);
  session.onWatchStatus((watchId) => scans.set(watchId, (scans.get(watchId) ?? 0) + 1));
  // The session as the web host sees it, its stopWatch calls noted once they are done.
  const service = new Proxy(session, {
    get(target, property) {
      if (property === 'stopWatch') return (watchId: string) => target.stopWatch(watchId).then(() => void stopped.add(watchId));
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  server = await startUiServer({ service, port: 0, staticDir: RENDERER_DIR, heartbeatMs: 2_000 });
});

afterAll(async () => {
  await server?.close();
  await session?.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

function openPage(options: { autoPong?: boolean } = {}): Promise<WebSocket> {
  const origin = `http://127.0.0.1:${server.port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api`, ['holdwatch', `holdwatch.token.${server.token}`], { headers: { origin }, ...options });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

let nextRequestId = 1;

/** Sends one request; resolves with its answer's message once the host sent it. */
function ask(ws: WebSocket, method: string, request: unknown): Promise<{ ok: boolean; result?: unknown; error?: string }> {
  const id = nextRequestId++;
  return new Promise((resolve) => {
    ws.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString()) as { id?: number; ok: boolean; result?: unknown };
      if (message.id === id) resolve(message);
    });
    ws.send(JSON.stringify({ id, method, request }));
  });
}

async function startWatch(ws: WebSocket): Promise<string> {
  return ((await ask(ws, 'startWatch', { dirs: [watched], intervalMs: 100 })).result as { watchId: string }).watchId;
}

/** Resolves once the web host stopped the watch; rejects when it keeps scanning `scansAllowed` more times. */
async function stopsScanning(watchId: string, scansAllowed = 30): Promise<void> {
  const limit = (scans.get(watchId) ?? 0) + scansAllowed;
  for (;;) {
    if (stopped.has(watchId)) return;
    if ((scans.get(watchId) ?? 0) >= limit) throw new Error(`watch ${watchId} still scans ${scansAllowed} scans after its page went`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const until = async (test: () => boolean): Promise<void> => {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('watches started by a page', () => {
  it('stop when the page closes; another page’s watch goes on', async () => {
    const staying = await openPage();
    const stayingWatch = await startWatch(staying);
    const pages = await Promise.all(Array.from({ length: 3 }, () => openPage()));
    const watchIds = await Promise.all(pages.map(startWatch));
    await until(() => watchIds.every((id) => (scans.get(id) ?? 0) >= 1));
    for (const page of pages) page.close();
    await Promise.all(watchIds.map((id) => stopsScanning(id)));
    const before = scans.get(stayingWatch) ?? 0;
    await until(() => (scans.get(stayingWatch) ?? 0) >= before + 2);
    staying.close();
    await stopsScanning(stayingWatch);
  }, 120_000);

  it('stop when the page stops answering pings', async () => {
    const silent = await openPage({ autoPong: false });
    const watchId = await startWatch(silent);
    await until(() => (scans.get(watchId) ?? 0) >= 1);
    await stopsScanning(watchId);
    await until(() => silent.readyState === WebSocket.CLOSED);
    expect(silent.readyState).toBe(WebSocket.CLOSED);
  }, 120_000);
});

/** The argv of every process now, by pid. */
function processes(): Map<number, string[]> {
  const all = new Map<number, string[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      all.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0'));
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** The host's own fds open on `path`. */
const fdsOn = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  });

/** The pids of the live stack's worker and debugger for `target`. */
function captureOf(target: number): number[] {
  const of = [...processes()].filter(([, argv]) => argv.includes(String(target)) && (argv.includes('stack') || argv.some((a) => a.endsWith('gdb'))));
  return of.map(([pid]) => pid);
}

/** Resolves once `test` holds; rejects after `checks` checks 100 ms apart (the most the page's things may outlive it). */
async function within(checks: number, what: string, test: () => boolean): Promise<void> {
  for (let i = 0; !test(); i++) {
    if (i >= checks) throw new Error(`${what}, ${checks} checks after the page went`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(process.platform !== 'linux')('a terminal run followed and a live stack captured by a page', () => {
  let terminalRun: ReturnType<typeof startCli>;
  let target: ChildProcess;
  let runId: string;
  let journal: string;

  beforeAll(async () => {
    terminalRun = startCli(['run', '--watch', watched, '--', 'sleep', '600'], { env: { HOLDWATCH_DATA_DIR: join(scratch, 'data') } });
    for (;;) {
      const [live] = await session.listActiveRuns();
      if (live) {
        runId = live.runId;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    journal = join(scratch, 'data', 'runs', `${runId}.jsonl`);
    // Threads enough that gdb's `thread apply all bt` takes longer than a page's things may outlive it.
    const code =
      'import threading, time\nev = threading.Event()\nfor _ in range(5000): threading.Thread(target=ev.wait, daemon=True).start()\nprint("ready", flush=True)\ntime.sleep(600)';
    target = spawn('/usr/bin/python3', ['-c', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => target.stdout!.on('data', (d: Buffer) => d.includes('ready') && resolve()));
  }, 60_000);

  afterAll(async () => {
    target?.kill('SIGKILL');
    // SIGTERM, which holdwatch forwards to its command: SIGKILL would leave the `sleep` behind.
    const child = terminalRun?.child;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  /** A page follows the terminal run and asks for the target's live stack; resolves once gdb is attached. */
  async function startBoth(page: WebSocket): Promise<void> {
    expect((await ask(page, 'attachRun', runId)).ok).toBe(true);
    expect(fdsOn(journal)).toHaveLength(1);
    const details = (await session.getProcessDetails(target.pid!))!;
    void ask(page, 'captureLiveStack', { pid: target.pid, startedAtMs: details.process.startedAtMs });
    await within(300, 'gdb never attached', () =>
      [...processes()].some(([, argv]) => argv.some((a) => a.endsWith('gdb')) && argv.includes(String(target.pid))),
    );
  }

  async function releasedAll(): Promise<void> {
    await within(60, 'the host still reads the followed run’s journal', () => fdsOn(journal).length === 0);
    await within(60, 'the live stack’s worker or gdb still runs', () => captureOf(target.pid!).length === 0);
    // gdb ended mid-walk leaves its target stopped: it runs again.
    await within(20, 'the target is still stopped', () => !/^State:\s+[tT]/m.test(readFileSync(`/proc/${target.pid}/status`, 'utf8')));
  }

  it('end when the page closes', async () => {
    const page = await openPage();
    await startBoth(page);
    page.close();
    await releasedAll();
  }, 120_000);

  it('end when the page stops answering pings', async () => {
    const page = await openPage({ autoPong: false });
    await startBoth(page);
    await releasedAll();
    await until(() => page.readyState === WebSocket.CLOSED);
  }, 120_000);
});

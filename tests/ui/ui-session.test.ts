// The UI session as both hosts use it (built, as shipped), with real processes: readable refusals
// for bad runs, ending a process only by its identity and never holdwatch itself, exports of a run,
// and process details (cwd, tag, children, handle count, run membership, holdings with access).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessDetails } from '../../contract/details.js';
import type { Holder } from '../../contract/holders.js';
import type { RunEvent } from '../../contract/runs.js';
import { RecentDirs } from '../../dist/host/recent-dirs.js';
import type { HostSession } from '../../dist/host/session/host-session.js';
import { CLI } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile, pythonHoldingForDetails } from '../support/holders.js';
import { scratchSession } from '../support/scratch-session.js';

let scratch: string;
let session: HostSession;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-session-'));
  mkdirSync(join(scratch, 'watched'));
  // Run journals go to the scratch data dir, not the user's.
  session = scratchSession(scratch);
});

afterAll(async () => {
  await session.dispose();
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

describe('HostSession', () => {
  it('refuses a run whose command does not exist or whose working directory is missing, readably', async () => {
    const dirs = [join(scratch, 'watched')];
    await expect(session.startRun({ command: ['no-such-runner-xyz'], cwd: scratch, dirs })).rejects.toThrow('command not found: no-such-runner-xyz');
    await expect(session.startRun({ command: ['true'], cwd: join(scratch, 'nope'), dirs })).rejects.toThrow(/working directory .* does not exist/);
    await expect(session.startRun({ command: ['true'], cwd: scratch, dirs: [join(scratch, 'missing')] })).rejects.toThrow(/no such directory/);
  });

  it('never ends holdwatch itself, and ends a process only by (pid, start time)', async () => {
    const self = await session.getProcessDetails(process.pid);
    expect(self?.endRefusal).toBe('this is holdwatch itself');
    await expect(session.endProcess({ pid: process.pid, startedAtMs: self!.process.startedAtMs })).rejects.toThrow(/will not end .*holdwatch itself/);
    await expect(session.endProcess({ pid: 1, startedAtMs: (await session.getProcessDetails(1))!.process.startedAtMs })).rejects.toThrow(
      /will not end process 1/,
    );

    const holder = await pythonHoldingFile(join(scratch, 'watched', 'held.log'));
    const details = await session.getProcessDetails(holder.pid);
    expect(details).toMatchObject({ endRefusal: null, process: { pid: holder.pid, name: 'python3' } });
    expect(details!.ancestry[0]!.pid).toBe(process.pid); // its parent: this test process
    // A pid reused by another process (another start time) is refused, not killed.
    await expect(session.endProcess({ pid: holder.pid, startedAtMs: details!.process.startedAtMs - 60_000 })).rejects.toThrow(/already exited/);
    const exited = new Promise((resolve) => holder.child.once('exit', (_code, signal) => resolve(signal)));
    await session.endProcess({ pid: holder.pid, startedAtMs: details!.process.startedAtMs });
    await expect(exited).resolves.toBe('SIGTERM');
  });

  it('closes no handle on Linux: the details say why, and the call is refused with the same reason, the holder unharmed', async () => {
    const path = join(scratch, 'watched', 'close-me.log');
    const holder = await pythonHoldingFile(path);
    const details = await session.getProcessDetails(holder.pid);
    expect(details?.closeRefusal).toMatch(/^closing a handle of another process is not offered on Linux: it needs ptrace/);
    await expect(session.closeHandle({ pid: holder.pid, startedAtMs: details!.process.startedAtMs, handle: 'fd 3', path })).rejects.toThrow(
      details!.closeRefusal!,
    );
    expect(holder.child.exitCode).toBeNull();
    holder.child.kill();
  });

  it('runs a command with its output captured, sends its events, and exports the run', async () => {
    const events: RunEvent['type'][] = [];
    let output = '';
    const ended = new Promise<void>((resolve) =>
      session.onRunEvent((_runId, event) => {
        events.push(event.type);
        if (event.type === 'output') output += event.text;
        if (event.type === 'ended') resolve();
      }),
    );
    const { runId } = await session.startRun({
      command: ['sh', '-c', 'echo "hello $GREETING"; exit 3'],
      cwd: scratch,
      dirs: [join(scratch, 'watched')],
      env: { GREETING: 'from the UI' },
    });
    await ended;
    expect(output).toBe('hello from the UI\n');
    expect(events[0]).toBe('started');
    expect(events.at(-1)).toBe('ended');
    const md = await session.exportReport({ runId, format: 'md', redact: false });
    expect(md).toMatchObject({ fileName: `holdwatch-${runId}.md`, mimeType: 'text/markdown' });
    expect(md.text).toContain('sh -c');
    const json = await session.exportReport({ runId, format: 'json', redact: false });
    expect(JSON.parse(json.text)).toMatchObject({ runId, exitCode: 3 });
    await expect(session.exportReport({ runId: 'nope', format: 'md', redact: false })).rejects.toThrow('no run nope in this session');
    expect(await session.listRecentDirs()).toContain(join(scratch, 'watched'));
  });
});

async function until<T>(read: () => Promise<T | null | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('HostSession.getProcessDetails', () => {
  // Real paths: /proc shows cwd and fd targets with symlinks (a /tmp that is a link) resolved.
  let watched = '';
  beforeAll(() => (watched = realpathSync(join(scratch, 'watched'))));

  it('reads cwd, the run tag, children, the handle count, and each holding with its access', async () => {
    const seen: Holder[] = [];
    const off = session.onWatchEvents((_id, events) => events.forEach((event) => event.type === 'appeared' && seen.push(event.holder)));
    const { watchId } = await session.startWatch({ dirs: [watched], intervalMs: 200 });
    const holder = await pythonHoldingForDetails(watched, { ...process.env, HOLDWATCH_RUN: 'tag-from-test' });
    try {
      const details = await until(async () => {
        const d = await session.getProcessDetails(holder.pid);
        return d && d.children.length > 0 && d.holdings.length >= 3 ? d : null;
      }, 'the holder and its child');
      expect(details.cwd).toBe(watched);
      expect(details.cwdUnreadableReason).toBeNull();
      expect(details.environmentTag).toBe('tag-from-test');
      expect(details.children).toEqual([expect.objectContaining({ name: 'python3' })]);
      expect(details.handleCount).toBeGreaterThan(3);
      expect(details.run).toBeNull(); // no run of this session started it

      const byPath = (name: string) => details.holdings.find((h) => h.path === join(watched, name));
      expect(byPath('written.log')).toMatchObject({ kind: 'file', access: { rights: ['write'] }, locks: ['FLOCK ADVISORY WRITE'], share: null });
      expect(byPath('written.log')!.access!.flags).toMatch(/^O_WRONLY\b/);
      expect(byPath('read.txt')).toMatchObject({ kind: 'file', access: { rights: ['read'] }, locks: [] });
      expect(byPath('read.txt')!.shareUnknownReason).toMatch(/no share modes/);
      expect(details.holdings.find((h) => h.kind === 'cwd')).toMatchObject({ path: watched, handle: null, access: null });

      // The watch's own rows carry the access too (read during the scan, not only for the panel).
      const written = await until(async () => seen.find((h) => h.pid === holder.pid && h.path.endsWith('written.log')), 'the watch row');
      expect(written.access).toMatchObject({ rights: ['write'], flags: 'O_WRONLY' }); // a scan reads the access mode only
      const read = await until(async () => seen.find((h) => h.pid === holder.pid && h.path.endsWith('read.txt')), 'the read row');
      expect(read.access).toMatchObject({ rights: ['read'], flags: 'O_RDONLY' });
    } finally {
      off();
      await session.stopWatch(watchId);
    }
  }, 30_000);

  it('names the run, the test-less spawn and the recorded chain of a process a run started', async () => {
    const script = 'import os, sys, time; f = open(os.path.join(sys.argv[1], "run.log"), "w"); print(os.getpid(), flush=True); time.sleep(30)';
    let pid = 0;
    const off = session.onRunEvent((_id, event) => {
      if (event.type === 'output' && pid === 0) pid = Number.parseInt(event.text, 10);
    });
    const { runId } = await session.startRun({ command: ['python3', '-c', script, watched], cwd: scratch, dirs: [watched] });
    try {
      const details: ProcessDetails = await until(async () => {
        if (!pid) return null;
        const d = await session.getProcessDetails(pid);
        return d?.run && d.holdings.some((h) => h.path.endsWith('run.log')) ? d : null;
      }, 'the run to know its process');
      expect(details.environmentTag).toBe(runId);
      expect(details.run).toMatchObject({ runId, byTagOnly: false, spawnedDuring: null });
      // Recorded at first sight: a python3 started through a pyenv shim was still the shim (bash) then.
      expect(details.run!.ancestry[0]).toMatchObject({ pid });
      expect(details.holdings.find((h) => h.path.endsWith('run.log'))).toMatchObject({ access: { rights: ['write'] } });
    } finally {
      off();
      await session.stopRun(runId);
    }
  }, 30_000);
});

/** The scanner worker's pid: the one process whose `--pipe` argument lies in `socketDir`. */
function workerPidUnder(socketDir: string): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (
        readFileSync(`/proc/${name}/cmdline`, 'utf8')
          .split('\0')
          .some((arg) => arg.startsWith(socketDir + '/'))
      )
        return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no scanner worker under ${socketDir}`);
}

/** Bytes a process has read so far (/proc/<pid>/io rchar): grows only when the worker serves a request. */
function bytesReadBy(pid: number): number {
  return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
}

describe('HostSession.getProcessDetails after "Scan as administrator"', () => {
  // Same-rights worker: as root (these tests run as root) it says elevated, as an elevated Windows worker does.
  it("reads details through the elevated watch's worker, not the session's own source", async () => {
    const socketDir = join(scratch, 'worker-sockets');
    const watched = realpathSync(join(scratch, 'watched'));
    const elevated = scratchSession(scratch, {
      recentDirs: new RecentDirs(join(scratch, 'data', 'recent-elevated.json')),
      scanWorker: { program: process.execPath, prefixArgs: [CLI], socketDir, sameRights: true },
    });
    try {
      const holder = await pythonHoldingFile(join(watched, 'elevated.log'));
      // One full poll at the start, the next in an hour: the worker only reads when details ask it.
      const { watchId } = await elevated.startWatch({ dirs: [watched], intervalMs: 3_600_000 });
      expect(await elevated.elevateScanner(watchId)).toMatchObject({ mode: 'worker', elevated: true });
      const worker = workerPidUnder(socketDir);

      const before = bytesReadBy(worker);
      await elevated.listActiveRuns(); // the session's own source: the worker reads nothing
      expect(bytesReadBy(worker)).toBe(before);
      const details = await elevated.getProcessDetails(holder.pid);
      expect(bytesReadBy(worker)).toBeGreaterThan(before);
      expect(details).toMatchObject({ process: { pid: holder.pid, name: 'python3' }, cwdUnreadableReason: null });
      expect(details!.handleCount).toBeGreaterThan(0);
      expect(details!.holdings.find((h) => h.path === join(watched, 'elevated.log'))).toMatchObject({ kind: 'file', access: { rights: ['write'] } });
      expect(details!.ancestry[0]!.pid).toBe(process.pid);
    } finally {
      await elevated.dispose();
    }
  }, 30_000);
});

// The scanner worker for real on Linux: `holdwatch scan-worker` started as a child, talking
// newline-delimited JSON over a unix socket to RemoteHolderSource, scanning a real python3 holder.
// (Windows starts the same worker elevated through ShellExecuteExW "runas": tests/wine covers that.)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holderKey } from '../../contract/identity.js';
import type { HolderSource } from '../../core/platform.js';
import { openHolderSource, scannerWorkerLauncher } from '../../native/index.js';
import { RemoteHolderSource, ScannerWorkerGoneError, type WorkerLauncher } from '../../native/remote/remote-holder-source.js';
import { CLI, REPO_ROOT, runCli } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile, type HolderProcess } from '../support/holders.js';

let scratch: string;
let dir: string;
let socketDir: string;
let holder: HolderProcess;
let launch: WorkerLauncher;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

beforeAll(async () => {
  launch = await scannerWorkerLauncher(process.execPath, [CLI], { sameRights: true });
  scratch = mkdtempSync(join(tmpdir(), 'hw-scan-worker-'));
  dir = join(scratch, 'watched');
  socketDir = join(scratch, 'data');
  mkdirSync(dir);
  mkdirSync(socketDir);
  writeFileSync(join(dir, 'held.txt'), 'x');
  holder = await pythonHoldingFile(join(dir, 'held.txt'));
});

afterAll(async () => {
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

describe('scan-worker over a unix socket', () => {
  it('scans through the worker exactly what an in-process scan sees, then the worker exits when the host closes', async () => {
    const local: HolderSource = await openHolderSource({ walkThread: 'caller' });
    const remote = await RemoteHolderSource.start({ launch, socketDir });
    try {
      expect(remote.workerPid).not.toBe(process.pid);
      expect(remote.elevated).toBe(process.geteuid?.() === 0);
      const watchDir = await remote.resolveWatchDir(dir);
      expect(watchDir).toEqual(await local.resolveWatchDir(dir));
      const [viaWorker, inProcess] = [await remote.scan({ dirs: [watchDir] }), await local.scan({ dirs: [watchDir] })];
      const keys = (holders: typeof viaWorker.holders) => holders.map(holderKey).sort();
      expect(keys(viaWorker.holders)).toEqual(keys(inProcess.holders));
      expect(viaWorker.holders.find((h) => h.pid === holder.pid)).toMatchObject({ kind: 'file', path: join(dir, 'held.txt'), processName: 'python3' });
      expect(viaWorker.denied.map((d) => d.pid).sort()).toEqual(inProcess.denied.map((d) => d.pid).sort());
      const restricted = await remote.scan({ dirs: [watchDir], pids: [holder.pid] });
      expect(restricted.holders.map((h) => h.pid)).toEqual([holder.pid]);
      expect(await remote.processInfo(holder.pid)).toMatchObject({ pid: holder.pid, name: 'python3' });
      await expect(remote.resolveWatchDir(join(scratch, 'missing'))).rejects.toThrow(/missing/);
      // The socket file is gone once the worker connected: nothing else can join.
      expect(readdirSync(socketDir)).toEqual([]);
    } finally {
      await local.dispose();
      await remote.dispose();
    }
    expect(await gone(remote.workerPid)).toBe(true);
    await expect(remote.scan({ dirs: [] })).rejects.toBeInstanceOf(ScannerWorkerGoneError);
  });

  it("reads extras through the worker as in-process: cwd, handle count, the written fd's access", async () => {
    const local = await openHolderSource({ walkThread: 'caller' });
    const remote = await RemoteHolderSource.start({ launch, socketDir });
    try {
      const watchDir = await local.resolveWatchDir(dir);
      const held = (await local.scan({ dirs: [watchDir], pids: [holder.pid] })).holders.find((h) => h.path === join(watchDir.display, 'held.txt'));
      expect(held?.handle).toMatch(/^fd \d+$/);
      const handles = [held!.handle!];
      const viaWorker = await remote.processExtras(holder.pid, handles);
      expect(viaWorker).toEqual(await local.processExtras!(holder.pid, handles));
      expect(viaWorker).toMatchObject({
        cwd: realpathSync(process.cwd()),
        cwdUnreadableReason: null,
        handles: { [handles[0]!]: { access: { rights: ['write'] } } },
      });
      expect(viaWorker!.handleCount).toBeGreaterThan(0);
      expect(await remote.processExtras(2 ** 30, handles)).toBeNull(); // no such process
    } finally {
      await local.dispose();
      await remote.dispose();
    }
  });

  it('a worker with the wrong token is refused: start fails, the worker exits', async () => {
    let pid: number | null = null;
    const forged: WorkerLauncher = async (args) => {
      const worker = await launch(args.map((a, i) => (args[i - 1] === '--token' ? 'f'.repeat(a.length) : a)));
      pid = worker.pid;
      return worker;
    };
    await expect(RemoteHolderSource.start({ launch: forged, socketDir, startupMs: 15_000 })).rejects.toThrow(/exited before it connected/);
    expect(pid).not.toBeNull();
    expect(await gone(pid!)).toBe(true);
    expect(readdirSync(socketDir)).toEqual([]);
  });

  it('the worker exits when its host dies (SIGKILL: no chance to close anything)', async () => {
    const host = join(scratch, 'host.mjs');
    writeFileSync(
      host,
      `import { RemoteHolderSource } from ${JSON.stringify(join(REPO_ROOT, 'dist/native/remote/remote-holder-source.js'))};
import { spawnLauncher } from ${JSON.stringify(join(REPO_ROOT, 'dist/native/remote/spawn-launcher.js'))};
const remote = await RemoteHolderSource.start({ launch: spawnLauncher(process.execPath, [${JSON.stringify(CLI)}]), socketDir: ${JSON.stringify(socketDir)} });
process.stdout.write(remote.workerPid + '\\n');
setInterval(() => {}, 1000);`,
    );
    const child = spawn(process.execPath, [host], { stdio: ['ignore', 'pipe', 'inherit'] });
    const workerPid = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => resolve(Number(String(d).trim())));
      child.on('exit', (code) => reject(new Error(`host exited ${code}`)));
    });
    expect(alive(workerPid)).toBe(true);
    child.kill('SIGKILL');
    expect(await gone(workerPid)).toBe(true);
  });

  it('scan-worker by hand: a missing pipe or token is bad input (one line, exit 2)', async () => {
    const bare = await runCli(['scan-worker']);
    expect(bare.code).toBe(2);
    expect(bare.stderr.trim().split('\n')).toHaveLength(1);
    const noPipe = await runCli(['scan-worker', '--pipe', join(socketDir, 'nobody-listens.sock'), '--token', 'ab'.repeat(24)]);
    expect(noPipe.code).toBe(2);
    expect(noPipe.stderr).toMatch(/^holdwatch: scan-worker: cannot connect to .*ENOENT/);
    expect((await runCli(['--help'])).stdout).not.toContain('scan-worker');
  });
});

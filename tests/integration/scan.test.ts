// `holdwatch scan` against real processes that really hold files under a real directory.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Holder, Snapshot } from '../../contract/holders.js';
import { CLI, runCli, startCli } from '../support/cli.js';
import {
  killAllHolders,
  nodeHoldingDir,
  nodeHoldingFile,
  pythonHoldingDirFd,
  pythonHoldingFile,
  pythonHoldingManyFiles,
  pythonHoldingUnlinkedFile,
  pythonMmapOnly,
  pythonWithCwd,
  stopHolder,
  type HolderProcess,
} from '../support/holders.js';

let root: string;
let dir: string;
let sibling: string;
const procs: Record<string, HolderProcess> = {};

async function scanJson(target: string): Promise<Snapshot> {
  const result = await runCli(['scan', target, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Snapshot;
}

function rowsOf(snapshot: Snapshot, pid: number): Holder[] {
  return snapshot.holders.filter((h) => h.pid === pid);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'hw-scan-'));
  dir = join(root, 'work');
  sibling = join(root, 'work-other'); // shares the prefix "work": must never match
  mkdirSync(join(dir, 'sub'), { recursive: true });
  mkdirSync(sibling);
  writeFileSync(join(dir, 'mapped.bin'), Buffer.alloc(4096, 1));
  symlinkSync(dir, join(root, 'link-to-work'));
  procs.pyFile = await pythonHoldingFile(join(dir, 'held.txt'));
  procs.pyUnlinked = await pythonHoldingUnlinkedFile(join(dir, 'gone.txt'));
  procs.pyDir = await pythonHoldingDirFd(join(dir, 'sub'));
  procs.pyCwd = await pythonWithCwd(join(dir, 'sub'));
  procs.pyMmap = await pythonMmapOnly(join(dir, 'mapped.bin'));
  procs.nodeFile = await nodeHoldingFile(join(dir, 'node.log'));
  procs.nodeDir = await nodeHoldingDir(dir);
  procs.sibling = await pythonHoldingFile(join(sibling, 'noise.txt'));
});

afterAll(async () => {
  await killAllHolders();
  rmSync(root, { recursive: true, force: true });
});

describe('holdwatch scan --json', () => {
  it('finds every kind of holder with the right kind, pid and path', async () => {
    const snap = await scanJson(dir);
    expect(snap.dir).toBe(dir);
    expect(snap.platform).toBe('linux');
    expect(rowsOf(snap, procs.pyFile!.pid)).toEqual([
      expect.objectContaining({ kind: 'file', path: join(dir, 'held.txt'), deleted: false, processName: 'python3' }),
    ]);
    expect(rowsOf(snap, procs.pyUnlinked!.pid)).toEqual([expect.objectContaining({ kind: 'file', path: join(dir, 'gone.txt'), deleted: true })]);
    expect(rowsOf(snap, procs.pyDir!.pid).map((h) => [h.kind, h.path])).toEqual([['dir', join(dir, 'sub')]]);
    expect(rowsOf(snap, procs.pyCwd!.pid).map((h) => [h.kind, h.path])).toEqual([['cwd', join(dir, 'sub')]]);
    expect(rowsOf(snap, procs.pyMmap!.pid).map((h) => [h.kind, h.path, h.handle])).toEqual([['mmap', join(dir, 'mapped.bin'), null]]);
    expect(rowsOf(snap, procs.nodeFile!.pid)).toEqual([expect.objectContaining({ kind: 'file', path: join(dir, 'node.log'), processName: 'node' })]);
    expect(rowsOf(snap, procs.nodeDir!.pid).map((h) => [h.kind, h.path])).toEqual([['dir', dir]]);
  });

  it('fills in the process facts a user needs', async () => {
    const snap = await scanJson(dir);
    const [row] = rowsOf(snap, procs.pyFile!.pid);
    expect(row!.ppid).toBe(process.pid);
    expect(row!.commandLine).toMatch(/python3(\.\d+)? -c /);
    expect(row!.commandLine).toContain(join(dir, 'held.txt'));
    expect(row!.handle).toMatch(/^fd \d+$/);
    expect(row!.user).toBe('root');
    expect(Math.abs(row!.processStartedAtMs - Date.now())).toBeLessThan(10 * 60_000);
    expect(snap.stats.processes).toBeGreaterThan(5);
    expect(snap.stats.handles).toBeGreaterThan(snap.holders.length);
  });

  it('never matches a sibling whose name shares the prefix', async () => {
    const snap = await scanJson(dir);
    expect(rowsOf(snap, procs.sibling!.pid)).toEqual([]);
    expect(snap.holders.filter((h) => h.path.startsWith(sibling))).toEqual([]);
    const other = await scanJson(sibling);
    expect(other.holders.map((h) => h.pid)).toEqual([procs.sibling!.pid]);
  });

  it('resolves a symlinked watch path to the real directory', async () => {
    const snap = await scanJson(join(root, 'link-to-work'));
    expect(snap.dir).toBe(dir);
    expect(rowsOf(snap, procs.pyFile!.pid).map((h) => h.path)).toEqual([join(dir, 'held.txt')]);
  });

  it('accepts a relative path', async () => {
    const result = await runCli(['scan', 'work', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Snapshot).dir).toBe(dir);
  });

  it('--check exits 1 when held and 0 when nothing holds', async () => {
    expect((await runCli(['scan', dir, '--check'])).code).toBe(1);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const free = await runCli(['scan', empty, '--check']);
    expect(free.code).toBe(0);
    expect(free.stdout).toContain('Nothing holds');
  });

  it('exits with its answer and says nothing when the reader of its output went away first', async () => {
    const { child } = startCli(['scan', dir, '--json', '--check']);
    child.stdout.destroy(); // `holdwatch scan ... | head -c 0`: the pipe is closed before the scan writes
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect([code, stderr]).toEqual([1, '']);
  });

  it('writes all of a JSON larger than a pipe, as one JSON.stringify, into a pipe its reader made non-blocking', async () => {
    const many = join(root, 'many');
    mkdirSync(many);
    await pythonHoldingManyFiles(many, 600);
    // The reader lets the pipe fill before it reads: the scan's writes then meet EAGAIN, and the rest
    // must still arrive, in order (cli/stdout-sync.ts).
    const reader = `
import fcntl, os, subprocess, sys, termios, array, time
r, w = os.pipe()
os.set_blocking(w, False)
size = fcntl.fcntl(r, 1032)  # F_GETPIPE_SZ
child = subprocess.Popen(sys.argv[1:], stdout=w)
os.close(w)
waiting = array.array("i", [0])
while fcntl.ioctl(r, termios.FIONREAD, waiting) == 0 and waiting[0] < size and child.poll() is None:
    time.sleep(0.01)
out = b""
while chunk := os.read(r, 1 << 16):
    out += chunk
sys.stdout.buffer.write(out)
sys.exit(child.wait())`;
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn('python3', ['-c', reader, process.execPath, CLI, 'scan', many, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(128 * 1024);
    const snapshot = JSON.parse(result.stdout) as Snapshot;
    expect(snapshot.holders).toHaveLength(600);
    expect(result.stdout).toBe(JSON.stringify(snapshot) + '\n');
  });

  it('prints a readable table with paths relative to the dir', async () => {
    const result = await runCli(['scan', dir]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^PROCESS\s+PID\s+KIND\s+HANDLE\s+PATH$/);
    expect(lines.find((l) => l.includes(String(procs.pyFile!.pid)))).toMatch(new RegExp(`^python3\\s+${procs.pyFile!.pid}\\s+file\\s+fd \\d+\\s+held\\.txt$`));
    expect(lines.find((l) => l.includes(String(procs.pyUnlinked!.pid)))).toMatch(/gone\.txt \(deleted\)$/);
  });

  it('keeps a file name with a newline and an escape sequence on one inert table row', async () => {
    mkdirSync(join(root, 'odd'));
    const odd = await pythonHoldingFile(join(root, 'odd', 'two\nlines \x1b[31mred\x9b.txt'));
    try {
      const result = await runCli(['scan', join(root, 'odd')]);
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[1]).toMatch(new RegExp(`^python3\\s+${odd.pid}\\s+file\\s+fd \\d+\\s+two\\\\nlines \\\\x1b\\[31mred\\\\x9b\\.txt$`));
      expect(result.stdout).not.toMatch(/[\x1b\x9b]/);
    } finally {
      await stopHolder(odd);
    }
  });

  it('reports an executable run from the tree as exe', async () => {
    const exe = join(dir, 'sleep-copy');
    copyFileSync('/bin/sleep', exe);
    const { spawn } = await import('node:child_process');
    const child = spawn(exe, ['60'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const snap = await scanJson(dir);
      expect(rowsOf(snap, child.pid!).map((h) => [h.kind, h.path])).toEqual([['exe', exe]]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

// Builds the bench's fixture: a tree under os.tmpdir() held by real processes in every way
// holdwatch reports (fds, cwd, a mapping, an unlinked-while-open file, a running executable), plus
// noise holders in the sibling "<dir>-other" that a plain prefix match would wrongly count.
// The fixture owns every process it starts and the tree: dispose() kills them and removes it.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOLDER_SCRIPT } from './holder-script.js';

export type HolderRole = 'files' | 'files-cwd' | 'mmap' | 'unlinked' | 'exe' | 'noise';

export interface FixtureHolder {
  pid: number;
  role: HolderRole;
}

export interface FixtureOptions {
  fileHolders: number;
  filesPerHolder: number;
  /** Every n-th file holder also has its cwd inside the tree. */
  cwdEvery: number;
  noiseHolders: number;
}

export interface Fixture {
  /** The watched directory (canonical). */
  dir: string;
  /** The sibling "<dir>-other" that only noise holders use. */
  otherDir: string;
  holders: FixtureHolder[];
  /** fds open under `dir`: files, one directory fd per file holder, the unlinked file (not the mapping: its fd is closed). */
  heldFds: number;
  /** Every path that exists under `dir`: what a name-based tool such as fuser can be given. */
  treePaths: string[];
  dispose(): Promise<void>;
}

// Every fixture not yet disposed, so a signal can end them even while one is still being built.
const liveFixtures = new Set<() => void>();

/**
 * For a signal handler: SIGKILLs every fixture process and removes every fixture tree, synchronously
 * (a handler that awaits can be overtaken by the bench's own synchronous spawns).
 */
export function destroyAllFixturesNow(): void {
  for (const destroy of [...liveFixtures]) destroy();
}

const READY_TIMEOUT_MS = 30_000;

export async function createFixture(options: FixtureOptions): Promise<Fixture> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'holdwatch-bench-')));
  const children: ChildProcess[] = [];
  const destroyNow = () => {
    liveFixtures.delete(destroyNow);
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
  liveFixtures.add(destroyNow);
  let disposed = false;
  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    liveFixtures.delete(destroyNow);
    await Promise.all(children.map(killAndWait));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    const layout = writeTree(root, options);
    const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
    const startPython = (role: HolderRole, mode: string, target: string) => startHolder(children, role, python, [layout.script, mode, target], true);
    const starts: Promise<FixtureHolder>[] = [];
    layout.holderDirs.forEach((holderDir, i) => {
      const withCwd = i % options.cwdEvery === 0;
      starts.push(startPython(withCwd ? 'files-cwd' : 'files', withCwd ? 'files-cwd' : 'files', holderDir));
    });
    starts.push(startPython('mmap', 'mmap', layout.mappedFile));
    starts.push(startPython('unlinked', 'unlinked', layout.unlinkedFile));
    starts.push(startHolder(children, 'exe', layout.executable, ['infinity'], false));
    for (const noiseDir of layout.noiseDirs) starts.push(startPython('noise', 'files', noiseDir));
    const holders = await Promise.all(starts);
    return {
      dir: layout.dir,
      otherDir: layout.otherDir,
      holders,
      heldFds: options.fileHolders * (options.filesPerHolder + 1) + 1,
      treePaths: layout.treePaths.filter((p) => p !== layout.unlinkedFile),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

interface TreeLayout {
  dir: string;
  otherDir: string;
  script: string;
  holderDirs: string[];
  noiseDirs: string[];
  mappedFile: string;
  unlinkedFile: string;
  executable: string;
  treePaths: string[];
}

function writeTree(root: string, options: FixtureOptions): TreeLayout {
  const dir = join(root, 'tree');
  const otherDir = `${dir}-other`;
  const treePaths: string[] = [dir];
  const makeDir = (path: string) => {
    mkdirSync(path, { recursive: true });
    if (path.startsWith(dir + '/')) treePaths.push(path);
  };
  const makeFile = (path: string, content: string | Buffer) => {
    writeFileSync(path, content);
    if (path.startsWith(dir + '/')) treePaths.push(path);
  };
  const fillHolderDir = (path: string, files: number) => {
    makeDir(path);
    for (let f = 0; f < files; f++) makeFile(join(path, `f${String(f).padStart(4, '0')}.dat`), `file ${f}\n`);
    return path;
  };
  makeDir(dir);
  makeDir(otherDir);
  const script = join(root, 'holder.py');
  writeFileSync(script, HOLDER_SCRIPT);
  const holderDirs = Array.from({ length: options.fileHolders }, (_, i) => fillHolderDir(join(dir, `p${String(i).padStart(3, '0')}`), options.filesPerHolder));
  const noiseDirs = Array.from({ length: options.noiseHolders }, (_, i) => fillHolderDir(join(otherDir, `n${i}`), options.filesPerHolder));
  makeDir(join(dir, 'special'));
  const mappedFile = join(dir, 'special', 'mapped.bin');
  makeFile(mappedFile, Buffer.alloc(4096, 1));
  const unlinkedFile = join(dir, 'special', 'unlinked.dat');
  makeFile(unlinkedFile, 'unlinked while open\n');
  makeDir(join(dir, 'bin'));
  const executable = join(dir, 'bin', 'sleep-holder');
  copyFileSync(existsSync('/usr/bin/sleep') ? '/usr/bin/sleep' : '/bin/sleep', executable);
  chmodSync(executable, 0o755);
  treePaths.push(executable);
  return { dir, otherDir, script, holderDirs, noiseDirs, mappedFile, unlinkedFile, executable, treePaths };
}

/** Starts one holder from "/" (its cwd must not be in the tree unless its role says so). */
function startHolder(children: ChildProcess[], role: HolderRole, command: string, args: string[], waitsForReady: boolean): Promise<FixtureHolder> {
  const child = spawn(command, args, { cwd: '/', stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise<FixtureHolder>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fixture holder (${role}) not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    const done = (error: Error | null) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ pid: child.pid!, role });
    };
    child.once('error', done);
    child.once('exit', (code, signal) => done(new Error(`fixture holder (${role}) exited early: ${code ?? signal}`)));
    if (!waitsForReady) {
      // spawn() reports success only once exec() succeeded, so the executable is running from the tree.
      child.once('spawn', () => done(null));
      return;
    }
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('ready\n')) done(null);
    });
  });
}

function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

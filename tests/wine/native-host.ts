// The suite's Windows when the host is Windows (a windows-latest runner): this process's own node.exe,
// real paths, koffi's win32 binary from node_modules, no wineserver. Children get pipes, fed into the
// log files the tests read: with no inherited handle and windowsHide, libuv starts the child with
// CREATE_NO_WINDOW, so it has a console of its own that a Ctrl-C can be sent to without reaching vitest.
// Unverified until a Windows runner runs it: nothing here has run on real Windows yet.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, openSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { REPO, RUN_MARKER, type StartedNode, type WindowsEnv, type WindowsHost } from './windows-host.js';

/** `C:\x\y` -> `/c/x/y`, as MSYS (Git Bash) spells it. */
export function msysPath(windowsPath: string): string {
  return `/${windowsPath[0]!.toLowerCase()}${windowsPath.slice(2).replace(/\\/g, '/')}`;
}

function startNative(windows: WindowsEnv, args: string[], logs: { out: string; err: string }): StartedNode {
  // Opened before the spawn, so a test reading a log at once finds it (empty), as under Wine.
  const out = createWriteStream(logs.out, { fd: openSync(logs.out, 'w') });
  const err = createWriteStream(logs.err, { fd: openSync(logs.err, 'w') });
  const child = spawn(windows.nodeExe, args, { env: windows.env, stdio: 'pipe', windowsHide: true, cwd: REPO });
  child.stdin.end(); // EOF at once, as /dev/null gives under Wine
  child.stdout.pipe(out);
  child.stderr.pipe(err);
  return { child, logs, flushed: Promise.all([finished(out), finished(err)]).then(() => undefined) };
}

export const nativeHost: WindowsHost = {
  kind: 'native',
  where: 'on Windows',
  missing: () => (process.arch === 'x64' ? null : `the win32 backend is x64 only (this node.exe is ${process.arch})`),

  prepare: (runId) => ({
    nodeExe: process.execPath,
    // npm installs koffi's optional win32-x64 package beside it on Windows.
    koffiBinary: createRequire(join(REPO, 'package.json')).resolve('@koromix/koffi-win32-x64/win32_x64/koffi.node'),
    env: { ...process.env, [RUN_MARKER]: runId },
  }),

  toWindows: (path) => path,
  fromWindows: (path) => path,

  // realpath.native gives long names: a runner's TEMP is the 8.3 `C:\Users\RUNNER~1\...`, and the tests
  // compare what holdwatch shows (the long form) with the dir they made.
  makeScratch: (prefix) => realpathSync.native(mkdtempSync(join(realpathSync.native(tmpdir()), prefix))),
  spawnNode: startNative,

  shortPathName(windows, path) {
    // Verbatim: cmd's own quoting, not Node's (which would quote the `for` line's parentheses apart).
    const cmd = spawnSync('cmd.exe', ['/d', '/s', '/c', `"for %I in ("${path}") do @echo %~sI"`], {
      env: windows.env,
      encoding: 'utf8',
      windowsVerbatimArguments: true,
      windowsHide: true,
      timeout: 60_000,
    });
    if (cmd.status !== 0) throw new Error(`cmd %~sI of ${path} exited ${cmd.status}: ${cmd.stderr}`);
    return cmd.stdout.trim();
  },

  spellings: (dir) => [dir, dir.replace(/\\/g, '/'), `\\\\?\\${dir}`, msysPath(dir)],

  async interrupt(child, windows) {
    // A helper attaches to the child's console and raises Ctrl-C there (fixtures/ctrl-c.mjs).
    const helper = spawnSync(windows.nodeExe, [join(REPO, 'tests', 'wine', 'fixtures', 'ctrl-c.mjs'), String(child.pid)], {
      env: windows.env,
      encoding: 'utf8',
      windowsHide: true,
      timeout: 30_000,
    });
    if (helper.status !== 0) throw new Error(`ctrl-c.mjs ${child.pid} exited ${helper.status}: ${helper.stderr}`);
  },

  killRun(_windows, spawned) {
    // /T: the tree by parent pid. A grandchild whose parent already exited is not reached; the suite's
    // processes end with their parents or are released by the tests themselves.
    for (const pid of spawned) spawnSync('taskkill.exe', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
  },

  stop: () => {},
  summary: () => 'native Windows (no wineserver)',
};

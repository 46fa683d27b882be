'use strict';
// The calls that start processes (child_process) and process.chdir: a child's spawn record names
// the line that started it, and a working directory under a watched dir is a hold of its own.
const childProcess = require('node:child_process');
const { state, safeCwd } = require('./probe-state.cjs');
const { captureInto } = require('./stacks.cjs');
const { schedule, flush, toPath } = require('./probe-log.cjs');
const { captureSpawn, onSpawned } = require('./records.cjs');
const { likeOriginal, guard } = require('./wrap-helpers.cjs');
const { isWatched } = require('./self-inventory.cjs');
const { trackChild } = require('./child-holds.cjs');

function wrapChildProcess() {
  // exec calls execFile through the module's exports: only the outermost call records.
  for (const name of ['spawn', 'fork', 'exec', 'execFile', 'spawnSync', 'execSync', 'execFileSync']) {
    const startChild = childProcess[name];
    if (typeof startChild !== 'function') continue;
    const api = `child_process.${name}`;
    childProcess[name] = likeOriginal(function startChild_() {
      if (state.disabled || state.spawnDepth > 0) return Reflect.apply(startChild, this, arguments);
      const record = captureSpawn(startChild_);
      const cwd = optionsCwd(arguments);
      // Before the child exists: the opens it may inherit are on disk, whatever happens to us next.
      flush();
      state.spawnDepth++;
      let result;
      try {
        result = Reflect.apply(startChild, this, arguments);
      } finally {
        state.spawnDepth--;
      }
      const args = arguments;
      guard(() => {
        // A ChildProcess knows its pid and argv; spawnSync returns { pid }; execSync/execFileSync
        // return only output, so their child is matched by argv and time.
        const pid = result && typeof result === 'object' && typeof result.pid === 'number' ? result.pid : null;
        const argv = result && Array.isArray(result.spawnargs) ? result.spawnargs.map(String) : syncArgv(name, args);
        const executable = result && typeof result.spawnfile === 'string' ? result.spawnfile : (argv[0] ?? null);
        onSpawned(record, pid, argv, executable, api, cwd);
        trackChild(result);
      });
      return result;
    }, startChild);
  }
}

function optionsCwd(args) {
  for (const arg of args) {
    if (arg && typeof arg === 'object' && !Array.isArray(arg) && arg.cwd !== undefined) return toPath(arg.cwd);
  }
  return null;
}

function syncArgv(name, args) {
  if (name === 'execSync' || name === 'exec') return ['/bin/sh', '-c', String(args[0])];
  const file = String(args[0]);
  return Array.isArray(args[1]) ? [file, ...args[1].map(String)] : [file];
}

/**
 * process.chdir into a watched dir makes the process hold that dir (on Windows, its removal fails while
 * it is any process's working directory): recorded as an open with no fd, closed by the next chdir.
 */
function wrapChdir() {
  const chdir = process.chdir;
  process.chdir = likeOriginal(function chdir_(_directory) {
    const result = Reflect.apply(chdir, this, arguments);
    if (!state.disabled) guard(onChdir, chdir_);
    return result;
  }, chdir);
}

function onChdir(above) {
  const now = Date.now();
  if (state.cwdRecord !== null) {
    schedule(now);
    state.queue.push({ kind: 'close', id: state.cwdRecord.id, atMs: now, fd: null });
    state.cwdRecord = null;
  }
  const cwd = safeCwd();
  if (cwd === null || !isWatched(state.watched, cwd)) return;
  const record = captureInto(
    { kind: 'open', id: state.nextId++, atMs: now, api: 'process.chdir', path: cwd, fd: null, flags: null, test: null, trace: {}, cwd: true },
    above,
  );
  state.cwdRecord = record;
  schedule(now);
  state.queue.push(record);
}

module.exports = { wrapChildProcess, wrapChdir };

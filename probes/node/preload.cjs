'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a --require preload is CommonJS by definition */
// holdwatch stack probe for Node: `holdwatch run` appends `--require <this file>` to NODE_OPTIONS.
// With HOLDWATCH_PROBE_LOG set, it wraps the fs calls that open and close fds (open, openSync,
// promises.open, createReadStream/createWriteStream, opendir, close*) and the child_process calls
// that start processes, recording where each was called from.
//
// Cost is kept off the hot path: a call captures a V8 stack object (Error.captureStackTrace, no
// text), and the stack is formatted only when its record is written, once per tick
// (setImmediate, and on exit). An fd closed before then is never written at all: a loop of
// open/close pairs costs a capture and a Map entry per open. Records are JSON lines in
// <HOLDWATCH_PROBE_LOG>/node-<pid>-<ms>.jsonl, the format the Python probe writes.
// Nothing here may throw into the test: a failure disables the probe and says so once on stderr.
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');
const { syncBuiltinESMExports } = require('node:module');
const { fileURLToPath } = require('node:url');
const { isMainThread } = require('node:worker_threads');

const WIRE_VERSION = 1;
// Frames kept per stack. Capture cost grows with it (~0.7 µs a frame here, bench/probe-overhead.ts);
// the user's line is almost always within the first few, behind at most a wrapper library or two.
const STACK_LIMIT = Number(process.env.HOLDWATCH_PROBE_STACK_LIMIT) || 10;
const original = {
  openSync: fs.openSync,
  writeSync: fs.writeSync,
  closeSync: fs.closeSync,
};

const state = { logFd: -1, disabled: false, flushScheduled: false, nextId: 1, spawnDepth: 0 };
/** fd -> open record not written yet (dropped unwritten when the fd closes first). */
const pendingByFd = new Map();
/** fd -> id of an open record already written: its close must be written too. */
const writtenByFd = new Map();
/** Records waiting for the next flush, in order. */
let queue = [];

function start() {
  const dir = process.env.HOLDWATCH_PROBE_LOG;
  if (!dir || process.env.HOLDWATCH_PROBE_DISABLED) return;
  const file = path.join(dir, `node-${process.pid}-${Date.now()}${isMainThread ? '' : '-worker'}.jsonl`);
  try {
    state.logFd = original.openSync(file, 'a');
  } catch (error) {
    disable(`cannot write ${file}: ${error.code ?? error.message}`);
    return;
  }
  writeNow([{ v: WIRE_VERSION, kind: 'process', runtime: 'node', pid: process.pid, ppid: process.ppid, atMs: Date.now(), argv: [process.execPath, ...process.execArgv, ...process.argv.slice(1)], cwd: safeCwd() }]);
  if (state.disabled) return;
  wrapFs();
  wrapChildProcess();
  // ESM `import { openSync } from 'node:fs'` reads the builtin's exports: make them ours too.
  syncBuiltinESMExports();
  process.on('exit', flush);
}

function disable(reason) {
  if (state.disabled) return;
  state.disabled = true;
  pendingByFd.clear();
  writtenByFd.clear();
  queue = [];
  if (state.logFd >= 0) {
    try {
      original.closeSync(state.logFd);
    } catch {
      // already gone: nothing to release
    }
    state.logFd = -1;
  }
  // Children inherit the environment: one line for the whole process tree, not one per process.
  process.env.HOLDWATCH_PROBE_DISABLED = '1';
  try {
    process.stderr.write(`holdwatch: node stack probe disabled: ${reason}\n`);
  } catch {
    // no stderr either: stay silent rather than throw into the test
  }
}

function safeCwd() {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

// ---- stacks: captured cheaply, formatted when written.

function captureStack(above) {
  const holder = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_LIMIT;
  Error.captureStackTrace(holder, above);
  Error.stackTraceLimit = limit;
  return holder;
}

function structuredCallSites(_error, callSites) {
  return callSites;
}

/** [file, line, column, function, user] per frame, innermost first; the probe's own frames never appear. */
function formatStack(holder) {
  const previous = Error.prepareStackTrace;
  let callSites;
  try {
    // V8 formats `stack` on first access with whatever prepareStackTrace is installed then.
    Error.prepareStackTrace = structuredCallSites;
    callSites = holder.stack;
  } finally {
    Error.prepareStackTrace = previous;
  }
  if (!Array.isArray(callSites)) return [];
  const frames = [];
  for (const site of callSites) {
    let file = site.getFileName() ?? site.getEvalOrigin() ?? '<anonymous>';
    if (file === __filename) continue;
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        // keep the URL as it is
      }
    }
    const user = !file.startsWith('node:') && !file.includes(`${path.sep}node_modules${path.sep}`) && file !== '<anonymous>';
    const fn = site.getFunctionName() ?? site.getMethodName() ?? null;
    frames.push([file, site.getLineNumber() ?? 0, site.getColumnNumber() ?? null, fn, user]);
  }
  return frames;
}

// ---- records.

function onOpened(fd, filePath, flags, stack, api) {
  if (state.disabled || typeof fd !== 'number') return;
  // The path is resolved when written: path.resolve costs as much as the rest of this function.
  const record = { kind: 'open', id: state.nextId++, atMs: Date.now(), api, path: filePath, fd, flags, stack };
  pendingByFd.set(fd, record); // a stream's own record replaces the inner fs.open's for the same fd
  schedule();
}

function onOpenedDir(dir, dirPath, stack, api) {
  if (state.disabled || dir === null || typeof dir !== 'object') return;
  const record = { kind: 'open', id: state.nextId++, atMs: Date.now(), api, path: dirPath, fd: null, flags: 'r', stack };
  dirRecords.set(dir, record);
  queue.push(record);
  schedule();
}

function onClosing(fd) {
  if (state.disabled || typeof fd !== 'number') return;
  if (pendingByFd.delete(fd)) return; // opened and closed within the tick: never written
  const id = writtenByFd.get(fd);
  if (id === undefined) return;
  writtenByFd.delete(fd);
  queue.push({ kind: 'close', id, atMs: Date.now(), fd });
  schedule();
}

const dirRecords = new WeakMap();

function onClosingDir(dir) {
  const record = dirRecords.get(dir);
  if (record === undefined || state.disabled) return;
  dirRecords.delete(dir);
  if (!record.written) {
    record.dropped = true;
    return;
  }
  queue.push({ kind: 'close', id: record.id, atMs: Date.now(), fd: null });
  schedule();
}

function onSpawned(pid, argv, executable, api, stack, cwd) {
  if (state.disabled) return;
  queue.push({ kind: 'spawn', atMs: Date.now(), api, executable, argv, cwd: cwd ?? safeCwd(), childPid: pid, stack });
  schedule();
}

function toPath(value) {
  try {
    if (typeof value === 'string') return path.resolve(value);
    if (value instanceof URL) return fileURLToPath(value);
    if (Buffer.isBuffer(value)) return path.resolve(value.toString());
  } catch {
    // fall through: a path we cannot name
  }
  return String(value);
}

function flagsText(flags) {
  return typeof flags === 'string' || typeof flags === 'number' ? String(flags) : 'r';
}

function schedule() {
  if (state.flushScheduled) return;
  state.flushScheduled = true;
  // unref: a pending flush must not keep a finished process alive ('exit' flushes the rest).
  setImmediate(flush).unref();
}

function flush() {
  state.flushScheduled = false;
  if (state.disabled) return;
  const records = [];
  for (const [fd, record] of pendingByFd) {
    writtenByFd.set(fd, record.id);
    records.push(record);
  }
  pendingByFd.clear();
  for (const record of queue) {
    if (record.dropped) continue;
    record.written = true;
    records.push(record);
  }
  queue = [];
  if (records.length > 0) writeNow(records.sort((a, b) => a.atMs - b.atMs));
}

function writeNow(records) {
  let text = '';
  try {
    for (const record of records) {
      const { stack, ...fields } = record;
      delete fields.written;
      delete fields.dropped;
      const line = { v: WIRE_VERSION, pid: process.pid, ...fields };
      if (fields.kind === 'open') {
        line.path = toPath(fields.path);
        line.flags = flagsText(fields.flags);
      }
      if (stack !== undefined) line.frames = formatStack(stack);
      text += JSON.stringify(line) + '\n';
    }
    const bytes = Buffer.from(text);
    let offset = 0;
    while (offset < bytes.length) offset += original.writeSync(state.logFd, bytes, offset, bytes.length - offset);
  } catch (error) {
    disable(`cannot write the probe log: ${error.code ?? error.message}`);
  }
}

// ---- wrapping.

/** A wrapper that looks like the original: same name, length and own properties (promisify.custom...). */
function likeOriginal(wrapper, target) {
  if (typeof target !== 'function') return wrapper;
  for (const key of Reflect.ownKeys(target)) {
    if (key === 'prototype' || key === 'arguments' || key === 'caller') continue;
    try {
      Object.defineProperty(wrapper, key, Object.getOwnPropertyDescriptor(target, key));
    } catch {
      // a non-configurable property of the wrapper: keep the wrapper's own
    }
  }
  return wrapper;
}

function guard(fn) {
  try {
    fn();
  } catch (error) {
    disable(`internal error: ${error && error.message}`);
  }
}

function wrapFs() {
  const openSync = fs.openSync;
  fs.openSync = likeOriginal(function openSync_(filePath, flags) {
    if (state.disabled) return Reflect.apply(openSync, this, arguments);
    const stack = captureStack(openSync_);
    const fd = Reflect.apply(openSync, this, arguments);
    try {
      onOpened(fd, filePath, flags, stack, 'fs.openSync');
    } catch (error) {
      disable(`internal error: ${error && error.message}`);
    }
    return fd;
  }, openSync);

  const open = fs.open;
  fs.open = likeOriginal(function open_(filePath, ...rest) {
    const last = rest.length - 1;
    if (state.disabled || typeof rest[last] !== 'function') return Reflect.apply(open, this, arguments);
    const stack = captureStack(open_);
    const callback = rest[last];
    const flags = last > 0 ? rest[0] : 'r';
    rest[last] = function (error, fd) {
      if (!error) guard(() => onOpened(fd, filePath, flags, stack, 'fs.open'));
      return Reflect.apply(callback, this, arguments);
    };
    return Reflect.apply(open, this, [filePath, ...rest]);
  }, open);

  const closeSync = fs.closeSync;
  fs.closeSync = likeOriginal(function closeSync_(fd) {
    try {
      onClosing(fd);
    } catch (error) {
      disable(`internal error: ${error && error.message}`);
    }
    return Reflect.apply(closeSync, this, arguments);
  }, closeSync);

  const close = fs.close;
  fs.close = likeOriginal(function close_(fd) {
    guard(() => onClosing(fd));
    return Reflect.apply(close, this, arguments);
  }, close);

  for (const [name, api] of [['createReadStream', 'fs.createReadStream'], ['createWriteStream', 'fs.createWriteStream']]) {
    const create = fs[name];
    fs[name] = likeOriginal(function createStream(filePath) {
      const stream = Reflect.apply(create, this, arguments);
      if (state.disabled) return stream;
      const stack = captureStack(createStream);
      guard(() => {
        // The stream opens on a later tick through fs.open (whose own record has no user frame);
        // its 'open' event comes right after, in the same callback, and takes that fd's record.
        if (typeof stream.fd === 'number') onOpened(stream.fd, filePath, stream.flags, stack, api);
        else stream.once('open', (fd) => guard(() => onOpened(fd, stream.path ?? filePath, stream.flags, stack, api)));
      });
      return stream;
    }, create);
  }

  const opendirSync = fs.opendirSync;
  fs.opendirSync = likeOriginal(function opendirSync_(dirPath) {
    const stack = state.disabled ? undefined : captureStack(opendirSync_);
    const dir = Reflect.apply(opendirSync, this, arguments);
    if (stack) guard(() => { wrapDirClose(dir); onOpenedDir(dir, dirPath, stack, 'fs.opendirSync'); });
    return dir;
  }, opendirSync);

  const opendir = fs.opendir;
  fs.opendir = likeOriginal(function opendir_(dirPath, ...rest) {
    const last = rest.length - 1;
    if (state.disabled || typeof rest[last] !== 'function') return Reflect.apply(opendir, this, arguments);
    const stack = captureStack(opendir_);
    const callback = rest[last];
    rest[last] = function (error, dir) {
      if (!error) guard(() => { wrapDirClose(dir); onOpenedDir(dir, dirPath, stack, 'fs.opendir'); });
      return Reflect.apply(callback, this, arguments);
    };
    return Reflect.apply(opendir, this, [dirPath, ...rest]);
  }, opendir);

  const promises = fs.promises;
  const openPromise = promises.open;
  promises.open = likeOriginal(async function open(filePath, flags) {
    const stack = state.disabled ? undefined : captureStack(open);
    const handle = await Reflect.apply(openPromise, this, arguments);
    if (stack) guard(() => { wrapFileHandleClose(handle); onOpened(handle.fd, filePath, flags, stack, 'fs.promises.open'); });
    return handle;
  }, openPromise);

  const opendirPromise = promises.opendir;
  promises.opendir = likeOriginal(async function opendir(dirPath) {
    const stack = state.disabled ? undefined : captureStack(opendir);
    const dir = await Reflect.apply(opendirPromise, this, arguments);
    if (stack) guard(() => { wrapDirClose(dir); onOpenedDir(dir, dirPath, stack, 'fs.promises.opendir'); });
    return dir;
  }, opendirPromise);
}

// FileHandle's close is an own property of each handle (a class field), Dir's is on the
// prototype; neither class is exported. Wrap the handle's, and Dir's the first time one is seen.
function wrapFileHandleClose(handle) {
  if (!handle || typeof handle.close !== 'function') return;
  const close = handle.close;
  const fd = handle.fd;
  handle.close = likeOriginal(function close_() {
    guard(() => onClosing(fd));
    return Reflect.apply(close, this, arguments);
  }, close);
}

let dirWrapped = false;
function wrapDirClose(dir) {
  if (dirWrapped || !dir) return;
  dirWrapped = true;
  const proto = Object.getPrototypeOf(dir);
  for (const name of ['close', 'closeSync']) {
    const close = proto[name];
    if (typeof close !== 'function') continue;
    proto[name] = likeOriginal(function closeDir() {
      guard(() => onClosingDir(this));
      return Reflect.apply(close, this, arguments);
    }, close);
  }
}

function wrapChildProcess() {
  // exec calls execFile through the module's exports: only the outermost call records.
  for (const name of ['spawn', 'fork', 'exec', 'execFile', 'spawnSync', 'execSync', 'execFileSync']) {
    const startChild = childProcess[name];
    if (typeof startChild !== 'function') continue;
    const api = `child_process.${name}`;
    childProcess[name] = likeOriginal(function startChild_() {
      if (state.disabled || state.spawnDepth > 0) return Reflect.apply(startChild, this, arguments);
      const stack = captureStack(startChild_);
      const cwd = optionsCwd(arguments);
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
        const executable = result && typeof result.spawnfile === 'string' ? result.spawnfile : argv[0] ?? null;
        onSpawned(pid, argv, executable, api, stack, cwd);
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

try {
  start();
} catch (error) {
  disable(`internal error: ${error && error.message}`);
}

'use strict';
// The fs calls that open and close fds (open, openSync, promises.open, createReadStream,
// createWriteStream, close*), open and close dirs (opendir*) and delete (rm*, unlink*, rmdir*).
const fs = require('node:fs');
const path = require('node:path');
const { NativeError, STACK_LIMIT, HOT_STACK_LIMIT, HOT_OPENS, state, spareOpens, safeCwd } = require('./probe-state.cjs');
const { captureInto, captureOpen, newOpenRecord } = require('./stacks.cjs');
const { internalError, flush, toPath } = require('./probe-log.cjs');
const { onOpened, onClosing, onCloseCalled, onCloseDone, captureDirOpen, onOpenedDir, onClosingDir, openRecords } = require('./records.cjs');
const { watchFileHandle } = require('./file-handles.cjs');
const { listOwnHolds } = require('./test-boundaries.cjs');
const { likeOriginal, guard, withCallback } = require('./wrap-helpers.cjs');
const { childHoldsUnder } = require('./child-holds.cjs');

function wrapFs() {
  wrapFdCalls();
  wrapStreams();
  wrapDirs();
  wrapPromiseOpen();
  wrapDeletes();
}

function wrapFdCalls() {
  const openSync = fs.openSync;
  // Named arguments, not `arguments`: V8 summarises every value live at the capture, and an
  // arguments object there costs more than the call it forwards (fs.openSync takes three).
  fs.openSync = likeOriginal(function openSync_(filePath, flags, mode) {
    if (state.disabled || arguments.length > 3) return Reflect.apply(openSync, this, arguments);
    // captureOpen by hand: should V8 not inline a helper here, its optimised frame would cost a
    // summary of its own in every capture. `new Error()`, not captureStackTrace, which defines
    // `stack` on its target at every call where an Error's own map has it already: this wrapper's
    // own frame is then the first, hence one frame more (formatStack drops it).
    const record = spareOpens.pop() ?? newOpenRecord();
    const limit = NativeError.stackTraceLimit;
    NativeError.stackTraceLimit = (++state.opensSinceFlush > HOT_OPENS ? HOT_STACK_LIMIT : STACK_LIMIT) + 1;
    record.trace = new NativeError();
    NativeError.stackTraceLimit = limit;
    record.test = state.currentTest();
    record.scope = record.test === null ? state.currentScope() : null;
    const fd = openSync.call(this, filePath, flags, mode);
    onOpened(record, fd, filePath, flags, 'fs.openSync');
    return fd;
  }, openSync);

  const open = fs.open;
  fs.open = likeOriginal(function open_(filePath, flags) {
    const callback = arguments[arguments.length - 1];
    if (state.disabled || typeof callback !== 'function') return Reflect.apply(open, this, arguments);
    const record = captureOpen(open_);
    const openFlags = arguments.length > 2 ? flags : 'r';
    return Reflect.apply(
      open,
      this,
      withCallback(arguments, function (error, fd) {
        if (!error) onOpened(record, fd, filePath, openFlags, 'fs.open');
        return Reflect.apply(callback, this, arguments);
      }),
    );
  }, open);

  const closeSync = fs.closeSync;
  fs.closeSync = likeOriginal(function closeSync_(fd) {
    onClosing(fd);
    return Reflect.apply(closeSync, this, arguments);
  }, closeSync);

  const close = fs.close;
  fs.close = likeOriginal(function close_(fd, callback) {
    const closing = onCloseCalled(fd);
    if (closing === null) return Reflect.apply(close, this, arguments);
    // The callback may be left out: Node's own default then throws a close's error, as this does.
    const done = typeof callback === 'function' ? callback : undefined;
    return close.call(this, fd, function (error) {
      onCloseDone(fd, closing);
      if (done !== undefined) return Reflect.apply(done, this, arguments);
      if (error != null) throw error;
    });
  }, close);
}

function wrapStreams() {
  for (const [name, api] of [
    ['createReadStream', 'fs.createReadStream'],
    ['createWriteStream', 'fs.createWriteStream'],
  ]) {
    const create = fs[name];
    fs[name] = likeOriginal(function createStream(filePath) {
      const stream = Reflect.apply(create, this, arguments);
      if (state.disabled) return stream;
      const record = captureOpen(createStream);
      // The stream opens on a later tick through fs.open (whose own record has no user frame);
      // its 'open' event comes right after, in the same callback, and takes that fd's record.
      if (typeof stream.fd === 'number') onOpened(record, stream.fd, filePath, stream.flags, api);
      else guard(() => stream.once('open', (fd) => onOpened(record, fd, stream.path ?? filePath, stream.flags, api)));
      return stream;
    }, create);
  }
}

function wrapPromiseOpen() {
  const promises = fs.promises;
  const openPromise = promises.open;
  promises.open = likeOriginal(async function open(filePath, flags) {
    const record = state.disabled ? undefined : captureOpen(open);
    const handle = await Reflect.apply(openPromise, this, arguments);
    if (record) {
      onOpened(record, handle.fd, filePath, flags, 'fs.promises.open');
      guard(watchFileHandle, handle, record);
    }
    return handle;
  }, openPromise);
}

// A Dir holds its directory open until it is closed. Dir's close is on its prototype and the class
// is not exported: it is wrapped the first time a Dir is seen, before that Dir is recorded.
function wrapDirs() {
  const opendirSync = fs.opendirSync;
  fs.opendirSync = likeOriginal(function opendirSync_(dirPath) {
    const record = state.disabled ? undefined : captureDirOpen(opendirSync_);
    const dir = Reflect.apply(opendirSync, this, arguments);
    if (record) guard(onDirOpened, record, dir, dirPath, 'fs.opendirSync');
    return dir;
  }, opendirSync);

  const opendir = fs.opendir;
  fs.opendir = likeOriginal(function opendir_(dirPath) {
    const callback = arguments[arguments.length - 1];
    if (state.disabled || typeof callback !== 'function') return Reflect.apply(opendir, this, arguments);
    const record = captureDirOpen(opendir_);
    return Reflect.apply(
      opendir,
      this,
      withCallback(arguments, function (error, dir) {
        if (!error) guard(onDirOpened, record, dir, dirPath, 'fs.opendir');
        return Reflect.apply(callback, this, arguments);
      }),
    );
  }, opendir);

  const promises = fs.promises;
  const opendirPromise = promises.opendir;
  promises.opendir = likeOriginal(async function opendir(dirPath) {
    const record = state.disabled ? undefined : captureDirOpen(opendir);
    const dir = await Reflect.apply(opendirPromise, this, arguments);
    if (record) guard(onDirOpened, record, dir, dirPath, 'fs.promises.opendir');
    return dir;
  }, opendirPromise);
}

function onDirOpened(record, dir, dirPath, api) {
  if (state.disabled || dir === null || typeof dir !== 'object') return;
  wrapDirClose(dir);
  onOpenedDir(record, dir, dirPath, api);
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
      guard(onClosingDir, this);
      return Reflect.apply(close, this, arguments);
    }, close);
  }
}

// A delete is recorded only when this process, or a live child of it, still has a file under the path
// open (or its cwd there): on Windows that very call fails.
/** Ids of opens already named by a delete record. */
const deletedIds = new Set();
/** The children's holdings (pid, fd or cwd, path) already named by a delete record. */
const deletedChildHolds = new Set();

function wrapDeletes() {
  for (const name of ['rmSync', 'rm', 'unlinkSync', 'unlink', 'rmdirSync', 'rmdir']) wrapDelete(fs, name, `fs.${name}`);
  for (const name of ['rm', 'unlink', 'rmdir']) wrapDelete(fs.promises, name, `fs.promises.${name}`);
}

function wrapDelete(owner, name, api) {
  const original_ = owner[name];
  if (typeof original_ !== 'function') return;
  owner[name] = likeOriginal(function deletePath(target) {
    // rmSync's own recursion calls rmdirSync and unlinkSync: those are the outer call's.
    if (state.deleting) return Reflect.apply(original_, this, arguments);
    if (!state.disabled) onDeleting(target, api, deletePath);
    state.deleting = true;
    try {
      return Reflect.apply(original_, this, arguments);
    } finally {
      state.deleting = false;
    }
  }, original_);
}

/**
 * A delete of `target` is about to run: when this process still has open a file at or under it (or
 * its cwd is there), or a live child of it does, the call is recorded with its stack, those opens and
 * the children's holdings, and written at once (an exit handler's cleanup comes after the exit
 * record's flush).
 */
function onDeleting(target, api, above) {
  try {
    const gone = toPath(target);
    const within = (p) => p === gone || p.startsWith(gone.endsWith(path.sep) ? gone : gone + path.sep);
    // A native open under the path is held there too; a test may delete often, and its end checks all.
    listOwnHolds(state.currentTest(), true);
    const held = [];
    // Each open is deleted once: fs.rm's later steps (its callbacks' unlinks) add nothing.
    for (const record of openRecords(undefined)) if (!deletedIds.has(record.id) && within(toPath(record.path))) held.push(record.id);
    const cwd = safeCwd();
    const cwdHeld = cwd !== null && within(cwd);
    const children = childHoldsUnder(gone, state.watched).filter((hold) => !deletedChildHolds.has(childHoldKey(hold)));
    if (held.length === 0 && (!cwdHeld || state.cwdDeleted === cwd) && children.length === 0) return;
    for (const id of held) deletedIds.add(id);
    for (const hold of children) deletedChildHolds.add(childHoldKey(hold));
    if (cwdHeld) state.cwdDeleted = cwd;
    const record = captureInto({ kind: 'delete', atMs: Date.now(), api, path: gone, held, cwd: cwdHeld, children, test: null, trace: {} }, above);
    state.queue.push(record);
    flush();
  } catch (error) {
    internalError(error);
  }
}

function childHoldKey(hold) {
  return `${hold.pid}\0${hold.fd}\0${hold.path}`;
}

module.exports = { wrapFs };

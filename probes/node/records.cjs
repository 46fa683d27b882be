'use strict';
// The records of opens, closes and spawns. Hot paths (openSync/closeSync) call these directly: no
// closures, and they never throw.
const { SPARE_LIMIT, state, listedByFd, writtenByFd, closingByFd, spareOpens, safeCwd } = require('./probe-state.cjs');
const { captureInto } = require('./stacks.cjs');
const { internalError, schedule, flush } = require('./probe-log.cjs');

/** `record` (from captureOpen) now names an open fd. */
function onOpened(record, fd, filePath, flags, api) {
  if (state.disabled || typeof fd !== 'number') return;
  try {
    record.id = state.nextId++;
    record.atMs = Date.now();
    record.api = api;
    // Resolved when written (toPath): most fds close unwritten, and resolving is the dearest step here.
    record.path = filePath;
    record.fd = fd;
    record.flags = flags;
    schedule(record.atMs);
    state.pendingByFd[fd] = record; // a stream's own record replaces the inner fs.open's for the same fd
    state.pendingFds.push(fd);
  } catch (error) {
    internalError(error);
  }
}

/** `atMs`: when the close happened, if the caller dated it already (the collector's close). */
function onClosing(fd, atMs) {
  if (state.disabled || typeof fd !== 'number') return;
  try {
    const pendingByFd = state.pendingByFd;
    const pending = pendingByFd[fd];
    if (pending !== undefined) {
      // Opened and closed before a flush: never written.
      pendingByFd[fd] = undefined;
      if (spareOpens.length < SPARE_LIMIT) spareOpens.push(pending);
      return;
    }
    const written = writtenByFd.get(fd);
    if (written === undefined) return;
    writtenByFd.delete(fd);
    const closedAtMs = atMs ?? Date.now();
    schedule(closedAtMs);
    state.queue.push({ kind: 'close', id: written.id, atMs: closedAtMs, fd });
  } catch (error) {
    internalError(error);
  }
}

/**
 * An asynchronous close of `fd` is called: its open ends now, and the fd is marked closing until
 * `onCloseDone` with what this returns (null when the fd was no wrapped open).
 */
function onCloseCalled(fd) {
  if (state.disabled || typeof fd !== 'number') return null;
  const record = state.pendingByFd[fd] ?? writtenByFd.get(fd);
  // The path is copied: an unwritten record is reused for a later open once its fd closes.
  const closing = record === undefined ? null : { path: record.path };
  if (closing !== null) closingByFd.set(fd, closing);
  onClosing(fd);
  return closing;
}

function onCloseDone(fd, closing) {
  if (closing !== null && closingByFd.get(fd) === closing) closingByFd.delete(fd);
}

const dirRecords = new WeakMap();

function captureDirOpen(above) {
  return captureInto({ kind: 'open', id: 0, atMs: 0, api: '', path: '', fd: null, flags: 'r', written: false, dropped: false, trace: {} }, above);
}

/** `dir` is an open Dir whose close is wrapped already (wrap-fs.cjs). */
function onOpenedDir(record, dir, dirPath, api) {
  record.id = state.nextId++;
  record.atMs = Date.now();
  record.api = api;
  record.path = dirPath;
  dirRecords.set(dir, record);
  schedule(record.atMs);
  state.queue.push(record);
}

function onClosingDir(dir) {
  const record = dirRecords.get(dir);
  if (record === undefined || state.disabled) return;
  dirRecords.delete(dir);
  if (!record.written) {
    record.dropped = true;
    return;
  }
  const atMs = Date.now();
  schedule(atMs);
  state.queue.push({ kind: 'close', id: record.id, atMs, fd: null });
}

/** Timed at the call: a sync spawn returns after its child has run, and the matcher pairs a spawn with a child that started after it. */
function captureSpawn(above) {
  return captureInto({ kind: 'spawn', atMs: Date.now(), api: '', executable: null, argv: [], cwd: null, childPid: null, trace: {} }, above);
}

/** Written at once: a child's records must never precede its spawn's. */
function onSpawned(record, pid, argv, executable, api, cwd) {
  if (state.disabled) return;
  record.api = api;
  record.executable = executable;
  record.argv = argv;
  record.cwd = cwd ?? safeCwd();
  record.childPid = pid;
  state.queue.push(record);
  flush();
}

/** The fd opens still open now, of one test's (`test`) or of all (undefined). */
function openRecords(test) {
  const records = [];
  for (const fd of state.pendingFds) {
    const record = state.pendingByFd[fd];
    if (record !== undefined && (test === undefined || record.test === test)) records.push(record);
  }
  for (const record of writtenByFd.values()) if (test === undefined || record.test === test) records.push(record);
  for (const record of listedByFd.values()) if (test === undefined || record.test === test) records.push(record);
  const cwd = state.cwdRecord;
  if (cwd !== null && (test === undefined || cwd.test === test)) records.push(cwd);
  return records;
}

module.exports = { onOpened, onClosing, onCloseCalled, onCloseDone, captureDirOpen, onOpenedDir, onClosingDir, captureSpawn, onSpawned, openRecords };

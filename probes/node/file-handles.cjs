'use strict';
// FileHandle's close is an own property of each handle (a class field), and the class is not
// exported: each handle's is wrapped. A FileHandle the code never closes is closed by Node when it
// is collected ("Closing file descriptor N on garbage collection"; Node's warning is Node's,
// untouched). Such a handle is registered for finalization, and its file's identity (dev, ino) is
// kept: when the handle has been collected, or at its test's end and at exit, a descriptor that no
// longer names its file while `close` never ran was closed by the collector, and is written as a
// gc-close record with the test it was opened in and the one running. The check, not the
// finalization callback, dates the close: V8 runs those callbacks when it likes, and Node closes the
// fd from the native side.
const { original, state, writtenByFd } = require('./probe-state.cjs');
const { internalError, flush } = require('./probe-log.cjs');
const { onClosing, onCloseCalled, onCloseDone } = require('./records.cjs');
const { likeOriginal } = require('./wrap-helpers.cjs');

/** FileHandles opened here whose close has not run. */
const watchedHandles = new Set();

// Made here, not in watchFileHandle: a callback made there would keep that call's scope, and with it
// the first handle's own close (which refers to its handle), alive for the life of the process.
const fileHandleFinalizer = new FinalizationRegistry(onFileHandleFinalized);
function onFileHandleFinalized() {
  checkWatchedHandles(state.currentTest());
}

function watchFileHandle(handle, record) {
  if (!handle || typeof handle.close !== 'function') return;
  const close = handle.close;
  const fd = handle.fd;
  const stat = original.fstatSync(fd);
  const opened = { id: record.id, record, dev: stat.dev, ino: stat.ino };
  handle.close = likeOriginal(function close_() {
    watchedHandles.delete(opened);
    const closing = onCloseCalled(fd);
    const closed = Reflect.apply(close, this, arguments);
    const done = () => onCloseDone(fd, closing);
    if (closing !== null && closed && typeof closed.then === 'function') closed.then(done, done);
    return closed;
  }, close);
  watchedHandles.add(opened);
  fileHandleFinalizer.register(handle, null);
}

function stillNamesItsFile(opened) {
  try {
    const stat = original.fstatSync(opened.record.fd);
    return stat.ino === opened.ino && stat.dev === opened.dev;
  } catch {
    return false;
  }
}

function checkWatchedHandles(runningTest) {
  if (state.disabled || watchedHandles.size === 0) return;
  try {
    for (const opened of watchedHandles) {
      const record = opened.record;
      // A record is reused only after its close (spareOpens); an fd closed by fs.close is no longer
      // the probe's open: neither was the collector's doing.
      const open = record.id === opened.id && (state.pendingByFd[record.fd] === record || writtenByFd.get(record.fd) === record);
      if (open && stillNamesItsFile(opened)) continue;
      watchedHandles.delete(opened);
      if (open) onFileHandleCollected(record, runningTest);
    }
  } catch (error) {
    internalError(error);
  }
}

function onFileHandleCollected(record, runningTest) {
  // The open is written first, even one not flushed yet: the scans' row for this fd is matched to it.
  if (state.pendingByFd[record.fd] === record) flush();
  const atMs = Date.now();
  onClosing(record.fd, atMs);
  state.queue.push({
    kind: 'gc-close',
    atMs,
    resource: 'file',
    api: record.api,
    path: record.path,
    fd: record.fd,
    openedAtMs: record.atMs,
    test: record.test,
    closedDuring: runningTest,
    trace: record.trace,
  });
}

module.exports = { watchFileHandle, checkWatchedHandles };

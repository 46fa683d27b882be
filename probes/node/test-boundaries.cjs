'use strict';
// Tests, scopes and the end of the process: which opens are still open then. Each end is written at
// once with the opens it left open, since they outlived it whatever happens to the process next.
// At each edge (and before a delete) the process lists its own fds (self-inventory.cjs): a
// descriptor no wrapped call opened (a native addon's, a WASM VFS's) is recorded as an open, so it
// is attributed like the wrapped ones. For runners with no holdwatch reporter, test starts and ends
// also go to the run's events file (HOLDWATCH_EVENTS), the run's test timeline.
const { original, state, listedByFd, writtenByFd, closingByFd } = require('./probe-state.cjs');
const { schedule, flush, toPath } = require('./probe-log.cjs');
const { openRecords } = require('./records.cjs');
const { checkWatchedHandles } = require('./file-handles.cjs');

/**
 * A test or scope ended, and was listed, in this turn of the event loop: since then only microtasks
 * have run (an immediate queued then clears it). node:test, vitest and jest go from one test's end to
 * the next test's start in microtasks.
 */
let endListedThisTurn = false;

function endListed() {
  if (endListedThisTurn || state.inventory === null) return;
  endListedThisTurn = true;
  // The realm's own, taken at load: a test's fake timers would hold it back and count it as theirs.
  original.setImmediate(endTurn).unref();
}

function endTurn() {
  endListedThisTurn = false;
}

function onTestStarted(name, startedAtMs) {
  if (state.disabled) return;
  // What is open now was opened before this test: outside it. Right after the test before's end, in
  // the same turn, the count of descriptors unchanged stands for a listing: what could differ is a
  // descriptor closed and another opened in its place by native code in between.
  if (!endListedThisTurn || !state.inventory.sameCount()) listOwnHolds(null);
  const atMs = startedAtMs ?? Date.now();
  timelineEvent({ type: 'test-start', name, atMs, inTestProcess: true });
  schedule(atMs);
  state.queue.push({ kind: 'test', event: 'start', name, atMs, open: null, unlinked: null });
}

function onTestEnded(name, outcome, detail) {
  if (state.disabled) return;
  checkWatchedHandles(name);
  listOwnHolds(name);
  endListed();
  const atMs = Date.now();
  const open = openRecords(name);
  state.queue.push({ kind: 'test', event: 'end', name, atMs, open: open.map((r) => r.id), unlinked: unlinkedIds(open) });
  flush();
  timelineEvent({ type: 'test-end', name, atMs, inTestProcess: true, ...(outcome ? { outcome } : {}), ...(detail ? { detail } : {}) });
}

/** The opens of a wider scope (made outside any test while it ran) still open now. */
function scopeRecords(scope) {
  return openRecords(undefined).filter((record) => (record.test === null || record.test === undefined) && record.scope?.name === scope);
}

/**
 * A wider scope (a suite, a test file) has ended, its after/afterAll hooks run: what it opened outside
 * its tests and still holds, it holds past its scope.
 */
function onScopeEnded(name, kind) {
  if (state.disabled) return;
  listOwnHolds(null);
  endListed();
  const atMs = Date.now();
  const open = scopeRecords(name);
  state.queue.push({ kind: 'test', event: 'end', name, scope: kind, atMs, open: open.map((r) => r.id), unlinked: unlinkedIds(open) });
  flush();
}

function onExit() {
  if (state.disabled) return;
  state.trackerAtExit(); // a file-level test ends here: its end lists what is still open
  listOwnHolds(state.currentTest());
  checkWatchedHandles(state.currentTest());
  // A worker thread's exit ends its own opens' scope, not the process.
  state.queue.push({ kind: 'exit', atMs: Date.now(), open: openRecords(undefined).map((r) => r.id), thread: state.thread });
  flush();
}

function openTimeline(file) {
  if (!file) return -1;
  try {
    return original.openSync(file, 'a');
  } catch {
    return -1; // no timeline from here; the records still say which test opened what
  }
}

function timelineEvent(event) {
  if (state.timelineFd < 0) return;
  try {
    original.writeSync(state.timelineFd, JSON.stringify(event) + '\n');
  } catch {
    state.timelineFd = -1;
  }
}

/**
 * Lists this process's own descriptors under the watched dirs (`quickly`: SelfInventory.heldQuickly):
 * one that no wrapped call opened becomes an open record, made in `test` when it was not there at the
 * list before, else outside any test, in the scope running then; one gone since is closed.
 */
function listOwnHolds(test, quickly = false) {
  if (state.inventory === null) return;
  const skip = [state.logFd, state.timelineFd];
  const held = quickly ? state.inventory.heldQuickly(skip) : state.inventory.held(skip);
  if (held === null) return;
  const now = Date.now();
  const seen = new Set();
  for (const { fd, path: file } of held) {
    seen.add(fd);
    const listed = listedByFd.get(fd);
    const wrapped = state.pendingByFd[fd] ?? writtenByFd.get(fd);
    if (wrapped !== undefined && toPath(wrapped.path) === file) {
      if (listed !== undefined) closeListed(listed, now);
      continue;
    }
    // A wrapped open whose close the thread pool has yet to run: closed already, not a new open.
    const closing = closingByFd.get(fd);
    if (wrapped === undefined && listed === undefined && closing !== undefined && toPath(closing.path) === file) continue;
    if (listed !== undefined) {
      if (listed.path === file) continue;
      closeListed(listed, now);
    }
    // Opened after the last list: dated then, the earliest it can have been (a scan that saw it later matches).
    const record = { kind: 'open', id: state.nextId++, atMs: state.listedAtMs, api: 'native', path: file, fd, flags: null, test, trace: null, listed: true };
    if (test === null) record.scope = state.currentScope();
    listedByFd.set(fd, record);
    schedule(now);
    state.queue.push(record);
  }
  for (const [fd, record] of listedByFd) if (!seen.has(fd)) closeListed(record, now);
  state.listedAtMs = now;
}

function closeListed(record, atMs) {
  listedByFd.delete(record.fd);
  state.queue.push({ kind: 'close', id: record.id, atMs, fd: record.fd });
}

/** Of these open records, those whose file has no name left (unlinked while open: a delete-pending file on Windows). */
function unlinkedIds(records) {
  const ids = [];
  for (const record of records) {
    try {
      if (original.fstatSync(record.fd).nlink === 0) ids.push(record.id);
    } catch {
      // closed behind our back (a native close): not ours to judge
    }
  }
  return ids;
}

module.exports = { onTestStarted, onTestEnded, onScopeEnded, onExit, openTimeline, listOwnHolds };

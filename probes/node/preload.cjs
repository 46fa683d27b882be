'use strict';
// holdwatch stack probe for Node: `holdwatch run` appends `--require <this file>` to NODE_OPTIONS.
// With HOLDWATCH_PROBE_LOG set, it wraps the fs calls that open and close fds (open, openSync,
// promises.open, createReadStream/createWriteStream, opendir, close*) and the child_process calls
// that start processes, recording where each was called from; and the calls that delete (rm*,
// unlink*, rmdir*), which are recorded only when this process still has a file under the path open
// (or its cwd there): on Windows that very call fails.
//
// Why it is built this way (bench/probe-overhead.ts: 10,000 fs.closeSync(fs.openSync()) pairs in
// `node -e`. Once, fastest of 15 processes run one by one: 3.7 us a pair unprobed, 9.1 us (2.5x)
// with the probe as it was (10 frames, a Map, closures, arguments). On 2026-12-03, an unprobed and
// a probed process at once on one CPU: 4.5 us and 6.9 us, 1.53x median of 15 rounds, 1.61x worst):
// - The stack capture is nearly all of the cost: ~80% of what the probe adds to a pair (the same
//   probe with the capture left out: 1.09x). V8's floor is high: `new Error()` capturing no frame
//   costs ~0.8 us, the first frame (the caller's optimised loop, summarised from its deopt data)
//   ~0.6 us more, each further one ~0.1-0.2 us. V8 keeps call sites and formats no text; text is
//   made only when a record is written. Frames are kept to 10, or 2 in a file-heavy loop
//   (STACK_LIMIT). openSync captures with `new Error()`: Error.captureStackTrace defines `stack`
//   on its target at every call (perf: ~30% of its time), which an Error's own map already has.
// - Everything else is kept small: a record is reused when the fd closes unwritten, stack holders
//   live apart from the records (captureStackTrace turns its target slow, dictionary-mode), pending
//   opens sit in an fd-indexed array, and the openSync wrapper forwards named arguments (V8
//   summarises every value live at the capture, an `arguments` object included).
// - Records wait in memory, keyed by fd, and an fd closed before the flush is never written: a
//   flush ~50 ms later (unref'd timer) writes only what is still open, with its open-time atMs.
//   holdwatch reads the journals when the run ends, and the matcher goes by fd, path, pid and
//   atMs (core/stacks/match.ts), so a late write changes nothing it sees. Writes happen at once
//   before and after starting a child (its inherited fds and its spawn are on disk before any of
//   its own records), at exit, and at the next probe call once a record has waited 200 ms while
//   the event loop was blocked.
// - What a SIGKILL (or Node's default SIGTERM, which skips 'exit') loses: opens younger than
//   ~50 ms. The killed process's fds close with it (those a child inherited were written before
//   the child started), so the only holders that could miss their stack are ones a scan caught in
//   those last 50 ms; a handler on SIGTERM would change how the test process dies, which is worse.
// Records are JSON lines in <HOLDWATCH_PROBE_LOG>/node-<pid>-<ms>.jsonl, the format the Python
// probe writes. Nothing here may throw into the test: a failure disables the probe and says so
// once on stderr.
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');
const { syncBuiltinESMExports } = require('node:module');
const { fileURLToPath } = require('node:url');
const { isMainThread } = require('node:worker_threads');
const { trackRunnerTests } = require('./runners/index.cjs');
const { isWatched, listHeld, watchedPrefixes } = require('./self-inventory.cjs');

const WIRE_VERSION = 1;
/**
 * The realm's own Error, whatever a test puts in its place later: V8 reads stackTraceLimit from this
 * one, and the probe's `new Error()` must run none of the test's code.
 */
const NativeError = Error;
/** Frames of Node itself and of WebAssembly code: never the user's (core/stacks/runtime-frames.ts says why). */
const RUNTIME_FILE = /^(?:node:|wasm:\/\/|wasm-function\[|internal\/|native(?:\s|$)|<anonymous>$)/;
/** The probe's own files: their frames (the runners' wrapped methods) are the probe's, not the user's. */
const PROBE_DIR = __dirname + path.sep;
// Frames kept per stack. A capture costs ~0.8 us before its first frame, which costs ~0.6 us more
// (the caller's frame, often optimised code), each further one ~0.1-0.2 us. Opens are usually few
// and get 10, as many as the report and the UI show; past HOT_OPENS opens between two flushes (a
// file-heavy loop, where the probe's cost adds up), 2: the user's line and its caller, or the
// user's line behind one library frame.
const STACK_LIMIT = Number(process.env.HOLDWATCH_PROBE_STACK_LIMIT) || 10;
const HOT_STACK_LIMIT = Math.min(2, STACK_LIMIT);
const HOT_OPENS = 100;
// Records wait this long in memory: an fd closed within it is never written.
const FLUSH_DELAY_MS = 50;
// When the event loop is blocked (a long synchronous stretch) the timer cannot fire: the next
// probe call writes records that have waited longer than this.
const MAX_WAIT_MS = 200;
/** Spare open records (see captureOpen); enough for a burst of short-lived fds. */
const SPARE_LIMIT = 64;
const original = {
  readdirSync: fs.readdirSync,
  readlinkSync: fs.readlinkSync,
  openSync: fs.openSync,
  writeSync: fs.writeSync,
  closeSync: fs.closeSync,
  fstatSync: fs.fstatSync,
};

const state = {
  logFd: -1,
  timelineFd: -1,
  disabled: false,
  flushTimer: null,
  flushDueMs: 0,
  nextId: 1,
  spawnDepth: 0,
  opensSinceFlush: 0,
  currentTest: noTest,
  /** The tracker's word at the process's exit (node:test's file-level test ends there). */
  trackerAtExit: noop,
  /** Inside a wrapped delete call (its own recursion is not another delete). */
  deleting: false,
  /** The cwd a delete record last named as held (once per cwd). */
  cwdDeleted: null,
  /** (file, line, column) -> the source position, where the runner ran transformed code (jest). */
  mapPosition: null,
  /** The wider scope running outside any test (a suite's or file's hooks, import time), where the tracker knows it. */
  currentScope: noTest,
  /** The watched dirs, each ending in a separator: what the self-inventory lists. */
  watched: [],
  /** When this process last listed its own descriptors (a native open found then was made after the one before). */
  listedAtMs: 0,
  /** The chdir record of the working directory, while it lies under a watched dir. */
  cwdRecord: null,
};
/** fd -> the open record of a descriptor no wrapped call opened, found in the process's own fd list. */
const listedByFd = new Map();
/** fd -> open record not written yet (dropped unwritten when the fd closes first). An array: fds are small. */
let pendingByFd = [];
/** The fds given a pending record since the last flush, so a flush never walks up to the highest fd. */
let pendingFds = [];
/** fd -> the open record already written for it: its close must be written too. */
const writtenByFd = new Map();
/** Other records waiting for the next flush (dirs, closes, spawns), in order. */
let queue = [];
/** Ids of opens already named by a delete record. */
const deletedIds = new Set();
/** Open records of fds that closed unwritten, to capture into again. */
const spareOpens = [];

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
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  writeLines(
    JSON.stringify({ v: WIRE_VERSION, kind: 'process', runtime: 'node', pid: process.pid, ppid: process.ppid, atMs: Date.now(), argv, cwd: safeCwd() }) + '\n',
  );
  if (state.disabled) return;
  wrapFs();
  wrapChildProcess();
  wrapChdir();
  // ESM `import { openSync } from 'node:fs'` reads the builtin's exports: make them ours too.
  syncBuiltinESMExports();
  // A process running a test runner's tests (node --test's file, mocha, jest's worker): each open is
  // told which test made it, and each test's end which of its opens are still open then (the leak,
  // seen from inside, however short the test).
  state.watched = watchedPrefixes(process.env);
  state.listedAtMs = Date.now();
  const tracker = trackRunnerTests(process.env, process.argv[1], onTestStarted, onTestEnded, onScopeEnded);
  if (tracker !== null) {
    state.currentTest = tracker.currentTest;
    if (tracker.currentScope) state.currentScope = tracker.currentScope;
    if (tracker.atExit) state.trackerAtExit = tracker.atExit;
    if (tracker.mapPosition) state.mapPosition = tracker.mapPosition;
    if (tracker.timeline) state.timelineFd = openTimeline(process.env.HOLDWATCH_EVENTS);
  }
  process.on('exit', onExit);
}

function disable(reason) {
  if (state.disabled) return;
  state.disabled = true;
  pendingByFd = [];
  pendingFds = [];
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

function internalError(error) {
  disable(`internal error: ${error && error.message}`);
}

function safeCwd() {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

// ---- stacks: captured cheaply, formatted when written.

/** Captures the caller's stack (frames above `above`) into `record.trace`: V8 keeps call sites, no text. */
function captureInto(record, above) {
  const limit = NativeError.stackTraceLimit;
  NativeError.stackTraceLimit = ++state.opensSinceFlush > HOT_OPENS ? HOT_STACK_LIMIT : STACK_LIMIT;
  NativeError.captureStackTrace(record.trace, above);
  NativeError.stackTraceLimit = limit;
  // The test that made the call (an async open, a stream's, may complete after that test ended).
  // openSync_ does this by hand: keep the two alike.
  record.test = state.currentTest();
  record.scope = record.test === null ? state.currentScope() : null;
  return record;
}

/**
 * An open record with its call's stack. One whose fd closed unwritten is reused, trace included.
 * (A holder turns into a slow, dictionary-mode object, hence a holder apart from the record's own
 * fields.)
 */
function captureOpen(above) {
  return captureInto(spareOpens.pop() ?? newOpenRecord(), above);
}

function newOpenRecord() {
  return { kind: 'open', id: 0, atMs: 0, api: '', path: '', fd: 0, flags: 'r', test: null, scope: null, trace: {} };
}

function noTest() {
  return null;
}

function noop() {}

function mapPositionSafely(file, line, column) {
  try {
    return state.mapPosition(file, line, column);
  } catch {
    return null;
  }
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
    if (file.startsWith(PROBE_DIR)) continue;
    if (file.startsWith('file://')) {
      try {
        file = fileURLToPath(file);
      } catch {
        // keep the URL as it is
      }
    }
    const user = !RUNTIME_FILE.test(file) && !file.includes(`${path.sep}node_modules${path.sep}`);
    const fn = site.getFunctionName() ?? site.getMethodName() ?? null;
    const line = site.getLineNumber() ?? 0;
    const column = site.getColumnNumber() ?? null;
    // Code the runner transformed (jest's babel-jest, ts-jest): the source's line, not the output's.
    const mapped = state.mapPosition === null || !user ? null : mapPositionSafely(file, line, column);
    frames.push(mapped === null ? [file, line, column, fn, user] : [file, mapped.line, mapped.column, fn, user]);
  }
  return frames;
}

// ---- records. Hot paths (openSync/closeSync) call these directly: no closures, and they never throw.

/** `record` (from captureOpen) now names an open fd. */
function onOpened(record, fd, filePath, flags, api) {
  if (state.disabled || typeof fd !== 'number') return;
  try {
    record.id = state.nextId++;
    record.atMs = Date.now();
    record.api = api;
    // Resolved when written: path.resolve costs as much as the rest of this function.
    record.path = filePath;
    record.fd = fd;
    record.flags = flags;
    schedule(record.atMs);
    pendingByFd[fd] = record; // a stream's own record replaces the inner fs.open's for the same fd
    pendingFds.push(fd);
  } catch (error) {
    internalError(error);
  }
}

/** `atMs`: when the close happened, if the caller dated it already (the collector's close). */
function onClosing(fd, atMs) {
  if (state.disabled || typeof fd !== 'number') return;
  try {
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
    queue.push({ kind: 'close', id: written.id, atMs: closedAtMs, fd });
  } catch (error) {
    internalError(error);
  }
}

const dirRecords = new WeakMap();

function captureDirOpen(above) {
  return captureInto({ kind: 'open', id: 0, atMs: 0, api: '', path: '', fd: null, flags: 'r', written: false, dropped: false, trace: {} }, above);
}

function onOpenedDir(record, dir, dirPath, api) {
  if (state.disabled || dir === null || typeof dir !== 'object') return;
  wrapDirClose(dir);
  record.id = state.nextId++;
  record.atMs = Date.now();
  record.api = api;
  record.path = dirPath;
  dirRecords.set(dir, record);
  schedule(record.atMs);
  queue.push(record);
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
  queue.push({ kind: 'close', id: record.id, atMs, fd: null });
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
  queue.push(record);
  flush();
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

// ---- tests and the end of the process: which opens are still open then.

/** The fd opens still open now, of one test's (`test`) or of all (undefined). */
function openRecords(test) {
  const records = [];
  for (const fd of pendingFds) {
    const record = pendingByFd[fd];
    if (record !== undefined && (test === undefined || record.test === test)) records.push(record);
  }
  for (const record of writtenByFd.values()) if (test === undefined || record.test === test) records.push(record);
  for (const record of listedByFd.values()) if (test === undefined || record.test === test) records.push(record);
  const cwd = state.cwdRecord;
  if (cwd !== null && (test === undefined || cwd.test === test)) records.push(cwd);
  return records;
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
    queue.push({ kind: 'close', id: state.cwdRecord.id, atMs: now, fd: null });
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
  queue.push(record);
}

/** The opens of a wider scope (made outside any test while it ran) still open now. */
function scopeRecords(scope) {
  return openRecords(undefined).filter((record) => (record.test === null || record.test === undefined) && record.scope?.name === scope);
}

/**
 * Lists this process's own descriptors under the watched dirs (self-inventory.cjs): one that no wrapped
 * call opened (a native addon's, a WASM VFS's) becomes an open record, made in `test` when it was not
 * there at the list before, else outside any test, in the scope running then; one gone since is closed.
 */
function listOwnHolds(test) {
  if (state.watched.length === 0) return;
  const held = listHeld(state.watched, [state.logFd, state.timelineFd], original.readdirSync, original.readlinkSync);
  if (held === null) return;
  const now = Date.now();
  const seen = new Set();
  for (const { fd, path: file } of held) {
    seen.add(fd);
    const listed = listedByFd.get(fd);
    const wrapped = pendingByFd[fd] ?? writtenByFd.get(fd);
    if (wrapped !== undefined && toPath(wrapped.path) === file) {
      if (listed !== undefined) closeListed(listed, now);
      continue;
    }
    if (listed !== undefined) {
      if (listed.path === file) continue;
      closeListed(listed, now);
    }
    // Opened after the last list: dated then, the earliest it can have been (a scan that saw it later matches).
    const record = { kind: 'open', id: state.nextId++, atMs: state.listedAtMs, api: 'native', path: file, fd, flags: null, test, trace: null, listed: true };
    if (test === null) record.scope = state.currentScope();
    listedByFd.set(fd, record);
    schedule(now);
    queue.push(record);
  }
  for (const [fd, record] of listedByFd) if (!seen.has(fd)) closeListed(record, now);
  state.listedAtMs = now;
}

function closeListed(record, atMs) {
  listedByFd.delete(record.fd);
  queue.push({ kind: 'close', id: record.id, atMs, fd: record.fd });
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

function onTestStarted(name, startedAtMs) {
  if (state.disabled) return;
  listOwnHolds(null); // what is open now was opened before this test: outside it
  const atMs = startedAtMs ?? Date.now();
  timelineEvent({ type: 'test-start', name, atMs, inTestProcess: true });
  schedule(atMs);
  queue.push({ kind: 'test', event: 'start', name, atMs, open: null, unlinked: null });
}

/** Written at once, with its opens still open: they outlived the test, whatever happens to the process next. */
function onTestEnded(name, outcome, detail) {
  if (state.disabled) return;
  checkWatchedHandles(name);
  listOwnHolds(name);
  const atMs = Date.now();
  const open = openRecords(name);
  queue.push({ kind: 'test', event: 'end', name, atMs, open: open.map((r) => r.id), unlinked: unlinkedIds(open) });
  flush();
  timelineEvent({ type: 'test-end', name, atMs, inTestProcess: true, ...(outcome ? { outcome } : {}), ...(detail ? { detail } : {}) });
}

// ---- the run's test timeline, for runners with no holdwatch reporter: the events file (HOLDWATCH_EVENTS).

function openTimeline(file) {
  if (!file) return -1;
  try {
    return original.openSync(file, 'a');
  } catch {
    return -1; // no timeline from here; the records above still say which test opened what
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
 * A wider scope (a suite, a test file) has ended, its after/afterAll hooks run: what it opened outside
 * its tests and still holds, it holds past its scope. Written at once, as a test's end is.
 */
function onScopeEnded(name, kind) {
  if (state.disabled) return;
  listOwnHolds(null);
  const atMs = Date.now();
  const open = scopeRecords(name);
  queue.push({ kind: 'test', event: 'end', name, scope: kind, atMs, open: open.map((r) => r.id), unlinked: unlinkedIds(open) });
  flush();
}

function onExit() {
  if (state.disabled) return;
  state.trackerAtExit(); // a file-level test ends here: its end lists what is still open
  listOwnHolds(state.currentTest());
  checkWatchedHandles(state.currentTest());
  queue.push({ kind: 'exit', atMs: Date.now(), open: openRecords(undefined).map((r) => r.id) });
  flush();
}

/** Call before adding a record: arms the flush timer, or writes what waited too long (the loop is blocked). */
function schedule(nowMs) {
  if (state.flushDueMs !== 0) {
    if (nowMs - state.flushDueMs <= MAX_WAIT_MS - FLUSH_DELAY_MS) return;
    flush();
  }
  state.flushDueMs = nowMs + FLUSH_DELAY_MS;
  if (state.flushTimer === null) {
    state.flushTimer = setTimeout(flush, FLUSH_DELAY_MS);
    // unref: a pending flush must not keep a finished process alive ('exit' flushes the rest).
    state.flushTimer.unref();
  } else {
    state.flushTimer.refresh();
  }
}

/** Writes every record still waiting, in time order; at the same ms a close goes first (its fd may be open again). */
function flush() {
  state.flushDueMs = 0;
  state.opensSinceFlush = 0;
  if (state.disabled) return;
  const records = [];
  for (const record of queue) {
    if (record.dropped) continue;
    record.written = true;
    records.push(record);
  }
  queue = [];
  for (const fd of pendingFds) {
    const record = pendingByFd[fd];
    if (record === undefined) continue; // closed, or already taken (an fd reused since the last flush)
    pendingByFd[fd] = undefined;
    writtenByFd.set(fd, record);
    records.push(record);
  }
  pendingFds = [];
  if (records.length === 0) return;
  records.sort((a, b) => a.atMs - b.atMs);
  let text = '';
  try {
    for (const record of records) text += JSON.stringify(toLine(record)) + '\n';
  } catch (error) {
    internalError(error);
    return;
  }
  writeLines(text);
}

/** A record as the wire format has it (core/stacks/records.ts); stacks are formatted here. */
function toLine(record) {
  const pid = process.pid;
  switch (record.kind) {
    case 'open':
      return {
        v: WIRE_VERSION,
        kind: 'open',
        pid,
        atMs: record.atMs,
        api: record.api,
        path: toPath(record.path),
        fd: record.fd,
        id: record.id,
        flags: flagsText(record.flags),
        ...(typeof record.test === 'string' ? { test: record.test } : {}),
        ...(record.scope ? { scope: record.scope } : {}),
        ...(record.listed ? { listed: true } : {}),
        ...(record.cwd ? { cwd: true } : {}),
        frames: record.trace === null ? [] : formatStack(record.trace),
      };
    case 'close':
      return { v: WIRE_VERSION, kind: 'close', pid, atMs: record.atMs, id: record.id, fd: record.fd };
    case 'test':
      return {
        v: WIRE_VERSION,
        kind: 'test',
        pid,
        atMs: record.atMs,
        event: record.event,
        name: record.name,
        ...(record.scope ? { scope: record.scope } : {}),
        ...(record.open ? { open: record.open } : {}),
        ...(record.unlinked && record.unlinked.length > 0 ? { unlinked: record.unlinked } : {}),
      };
    case 'exit':
      return { v: WIRE_VERSION, kind: 'exit', pid, atMs: record.atMs, open: record.open };
    case 'gc-close':
      return {
        v: WIRE_VERSION,
        kind: 'gc-close',
        pid,
        atMs: record.atMs,
        resource: record.resource,
        api: record.api,
        path: toPath(record.path),
        fd: record.fd,
        openedAtMs: record.openedAtMs,
        ...(typeof record.test === 'string' ? { test: record.test } : {}),
        ...(typeof record.closedDuring === 'string' ? { closedDuring: record.closedDuring } : {}),
        frames: formatStack(record.trace),
      };
    case 'delete':
      return {
        v: WIRE_VERSION,
        kind: 'delete',
        pid,
        atMs: record.atMs,
        api: record.api,
        path: record.path,
        held: record.held,
        cwd: record.cwd,
        ...(typeof record.test === 'string' ? { test: record.test } : {}),
        frames: formatStack(record.trace),
      };
    default:
      return {
        v: WIRE_VERSION,
        kind: 'spawn',
        pid,
        atMs: record.atMs,
        api: record.api,
        executable: record.executable,
        argv: record.argv,
        cwd: record.cwd,
        childPid: record.childPid,
        ...(typeof record.test === 'string' ? { test: record.test } : {}),
        frames: formatStack(record.trace),
      };
  }
}

function writeLines(text) {
  try {
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

function guard(fn, a, b, c, d, e) {
  try {
    fn(a, b, c, d, e);
  } catch (error) {
    internalError(error);
  }
}

/** The callback-last arguments of an fs call with its callback replaced. */
function withCallback(args, callback) {
  const copy = Array.prototype.slice.call(args);
  copy[copy.length - 1] = callback;
  return copy;
}

function wrapFs() {
  const openSync = fs.openSync;
  // Named arguments, not `arguments`: V8 summarises every value live at the capture, and an
  // arguments object there costs more than the call it forwards (fs.openSync takes three).
  fs.openSync = likeOriginal(function openSync_(filePath, flags, mode) {
    if (state.disabled || arguments.length > 3) return Reflect.apply(openSync, this, arguments);
    // captureOpen by hand: should V8 not inline a helper here, its optimised frame would cost a
    // summary of its own in every capture. `new Error()`, not captureStackTrace (see the top):
    // this wrapper's own frame is then the first, hence one frame more (formatStack drops it).
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
  fs.close = likeOriginal(function close_(fd) {
    onClosing(fd);
    return Reflect.apply(close, this, arguments);
  }, close);

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

  const opendirSync = fs.opendirSync;
  fs.opendirSync = likeOriginal(function opendirSync_(dirPath) {
    const record = state.disabled ? undefined : captureDirOpen(opendirSync_);
    const dir = Reflect.apply(opendirSync, this, arguments);
    if (record) guard(onOpenedDir, record, dir, dirPath, 'fs.opendirSync');
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
        if (!error) guard(onOpenedDir, record, dir, dirPath, 'fs.opendir');
        return Reflect.apply(callback, this, arguments);
      }),
    );
  }, opendir);

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

  const opendirPromise = promises.opendir;
  promises.opendir = likeOriginal(async function opendir(dirPath) {
    const record = state.disabled ? undefined : captureDirOpen(opendir);
    const dir = await Reflect.apply(opendirPromise, this, arguments);
    if (record) guard(onOpenedDir, record, dir, dirPath, 'fs.promises.opendir');
    return dir;
  }, opendirPromise);

  for (const name of ['rmSync', 'rm', 'unlinkSync', 'unlink', 'rmdirSync', 'rmdir']) wrapDelete(fs, name, `fs.${name}`);
  for (const name of ['rm', 'unlink', 'rmdir']) wrapDelete(promises, name, `fs.promises.${name}`);
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
 * its cwd is there), the call is recorded with its stack and those opens, and written at once (an
 * exit handler's cleanup comes after the exit record's flush).
 */
function onDeleting(target, api, above) {
  try {
    const gone = toPath(target);
    const within = (p) => p === gone || p.startsWith(gone.endsWith(path.sep) ? gone : gone + path.sep);
    listOwnHolds(state.currentTest()); // a native open under the path is held there too
    const held = [];
    // Each open is deleted once: fs.rm's later steps (its callbacks' unlinks) add nothing.
    for (const record of openRecords(undefined)) if (!deletedIds.has(record.id) && within(toPath(record.path))) held.push(record.id);
    const cwd = safeCwd();
    const cwdHeld = cwd !== null && within(cwd);
    if (held.length === 0 && (!cwdHeld || state.cwdDeleted === cwd)) return;
    for (const id of held) deletedIds.add(id);
    if (cwdHeld) state.cwdDeleted = cwd;
    const record = captureInto({ kind: 'delete', atMs: Date.now(), api, path: gone, held, cwd: cwdHeld, test: null, trace: {} }, above);
    queue.push(record);
    flush();
  } catch (error) {
    internalError(error);
  }
}

// FileHandle's close is an own property of each handle (a class field), Dir's is on the
// prototype; neither class is exported. Wrap the handle's, and Dir's the first time one is seen.
// A FileHandle the code never closes is closed by Node when it is collected ("Closing file
// descriptor N on garbage collection"; Node's warning is Node's, untouched). Such a handle is
// registered for finalization, and its file's identity (dev, ino) is kept: when the handle has been
// collected, or at its test's end and at exit, a descriptor that no longer names its file while
// `close` never ran was closed by the collector, and is written as a gc-close record with the test it
// was opened in and the one running. The check, not the finalization callback, dates the close: V8
// runs those callbacks when it likes, and Node closes the fd from the native side.
function watchFileHandle(handle, record) {
  if (!handle || typeof handle.close !== 'function') return;
  const close = handle.close;
  const fd = handle.fd;
  const stat = original.fstatSync(fd);
  const opened = { id: record.id, record, dev: stat.dev, ino: stat.ino };
  handle.close = likeOriginal(function close_() {
    watchedHandles.delete(opened);
    onClosing(fd);
    return Reflect.apply(close, this, arguments);
  }, close);
  watchedHandles.add(opened);
  fileHandleFinalizer.register(handle, null);
}

// Made here, not in watchFileHandle: a callback made there would keep that call's scope, and with it
// the first handle's own close (which refers to its handle), alive for the life of the process.
const fileHandleFinalizer = new FinalizationRegistry(onFileHandleFinalized);
function onFileHandleFinalized() {
  checkWatchedHandles(state.currentTest());
}
/** FileHandles opened here whose close has not run. */
const watchedHandles = new Set();

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
      const open = record.id === opened.id && (pendingByFd[record.fd] === record || writtenByFd.get(record.fd) === record);
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
  if (pendingByFd[record.fd] === record) flush();
  const atMs = Date.now();
  onClosing(record.fd, atMs);
  queue.push({
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
  internalError(error);
}

'use strict';
// holdwatch stack probe for Node: `holdwatch run` appends `--require <this file>` to NODE_OPTIONS.
// With HOLDWATCH_PROBE_LOG set, it wraps the fs calls that open and close fds and dirs or delete
// (wrap-fs.cjs), and the calls that start processes or change the working directory
// (wrap-processes.cjs), recording where each was called from.
//
// Why it is built this way:
// - The stack capture is nearly all of what the probe adds to an open, so it is kept to what a
//   report shows: V8 keeps call sites and formats no text until a record is written (stacks.cjs),
//   and frames are limited, fewer in a file-heavy loop (STACK_LIMIT, probe-state.cjs).
// - The rest of the hot path (openSync, closeSync) makes no closure and allocates little: a record
//   is reused when its fd closes unwritten, stack holders live apart from the records (a capture
//   turns its target into a slow, dictionary-mode object), pending opens sit in an fd-indexed array
//   (records.cjs), and the openSync wrapper forwards named arguments (V8 summarises every value
//   live at the capture, an `arguments` object included).
// - Records wait in memory, and an fd closed before the flush is never written (probe-log.cjs).
//   Writes happen at once before and after starting a child (its inherited fds and its spawn are on
//   disk before any of its own records), at a test's or scope's end, at exit, and at the next probe
//   call once a record has waited MAX_WAIT_MS while the event loop was blocked.
// - What a SIGKILL (or Node's default SIGTERM, which skips 'exit') loses: the opens that are still
//   waiting. The killed process's fds close with it (those a child inherited were written before the
//   child started), so the only holders that can miss their stack are ones a scan caught in the last
//   FLUSH_DELAY_MS; a handler on SIGTERM would change how the test process dies, which is worse.
// Nothing here may throw into the test: a failure disables the probe and says so once on stderr.
const path = require('node:path');
const { syncBuiltinESMExports } = require('node:module');
const { WIRE_VERSION, THREAD_ID_SPAN, original, state, safeCwd } = require('./probe-state.cjs');
const { disable, internalError, writeLines } = require('./probe-log.cjs');
const { onTestStarted, onTestEnded, onScopeEnded, onExit, openTimeline } = require('./test-boundaries.cjs');
const { wrapFs } = require('./wrap-fs.cjs');
const { wrapChildProcess, wrapChdir } = require('./wrap-processes.cjs');
const { trackRunnerTests } = require('./runners/index.cjs');
const { SelfInventory, watchedPrefixes } = require('./self-inventory.cjs');

/** Threads of one process starting their logs in the same millisecond: far more than ever do. */
const MAX_SAME_NAMES = 1000;

function start() {
  const dir = process.env.HOLDWATCH_PROBE_LOG;
  if (!dir || process.env.HOLDWATCH_PROBE_DISABLED) return;
  if (!openLog(dir)) return;
  state.thread = workerThreadId();
  state.nextId = state.thread * THREAD_ID_SPAN + 1;
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  const thread = state.thread === 0 ? {} : { thread: state.thread };
  writeLines(
    JSON.stringify({
      v: WIRE_VERSION,
      kind: 'process',
      runtime: 'node',
      pid: process.pid,
      ppid: process.ppid,
      atMs: Date.now(),
      argv,
      cwd: safeCwd(),
      ...thread,
    }) + '\n',
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
  // A worker thread's probe knows only that thread's opens: a listing of the process's descriptors
  // would credit its test with another thread's files.
  if (state.watched.length > 0 && state.thread === 0) state.inventory = new SelfInventory(state.watched, original);
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

/**
 * The worker thread this is, 0 for the main thread. Node loads worker_threads before a worker's
 * preloads run; in the main thread it is not loaded unless something asked, and asking would load it
 * (~1.5 ms) into every test process.
 */
function workerThreadId() {
  if (!process.moduleLoadList?.includes('NativeModule worker_threads')) return 0;
  const { isMainThread, threadId } = require('node:worker_threads');
  return isMainThread ? 0 : threadId;
}

/**
 * A log of its own for each thread of this process (a worker thread loads the preload too): the name
 * is taken only where no file has it ('wx'), else the next with a counter. Asking node:worker_threads
 * which thread this is would load it into every test process.
 */
function openLog(dir) {
  const stem = path.join(dir, `node-${process.pid}-${Date.now()}`);
  for (let n = 0; ; n++) {
    const file = n === 0 ? `${stem}.jsonl` : `${stem}-${n}.jsonl`;
    try {
      state.logFd = original.openSync(file, 'wx');
      return true;
    } catch (error) {
      if (error.code === 'EEXIST' && n < MAX_SAME_NAMES) continue;
      disable(`cannot write ${file}: ${error.code ?? error.message}`);
      return false;
    }
  }
}

try {
  start();
} catch (error) {
  internalError(error);
}

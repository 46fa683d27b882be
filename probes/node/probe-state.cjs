'use strict';
// What every part of the Node stack probe shares: its limits, the fs calls it uses itself (taken
// before any wrapping), and the one mutable state object, so a module that resets the pending
// records (disable, flush) is seen by every module that reads them.
const fs = require('node:fs');

const WIRE_VERSION = 1;
/**
 * The realm's own Error, whatever a test puts in its place later: V8 reads stackTraceLimit from this
 * one, and the probe's `new Error()` must run none of the test's code.
 */
const NativeError = Error;
// Frames kept per stack. Each frame adds to the capture, the caller's (often optimised) frame most.
// Opens are usually few and get 10, as many as the report and the UI show; past HOT_OPENS opens
// between two flushes (a file-heavy loop, where the probe's cost adds up), 2: the user's line and
// its caller, or the user's line behind one library frame.
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
  statSync: fs.statSync,
  setImmediate,
};

function noTest() {
  return null;
}

function noop() {}

/** The ids of one thread's records (contract/probe-log.ts THREAD_ID_SPAN). */
const THREAD_ID_SPAN = 2 ** 32;

const state = {
  logFd: -1,
  timelineFd: -1,
  disabled: false,
  flushTimer: null,
  flushDueMs: 0,
  nextId: 1,
  /**
   * This worker thread's id, 0 in the main thread. Each thread writes a log of its own under the
   * process's pid, its record ids counting from threadId * THREAD_ID_SPAN (contract/probe-log.ts), so
   * one process's threads never share an id.
   */
  thread: 0,
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
  /** The lister of this process's own descriptors under the watched dirs (self-inventory.cjs). */
  inventory: null,
  /** When this process last listed its own descriptors (a native open found then was made after the one before). */
  listedAtMs: 0,
  /** The chdir record of the working directory, while it lies under a watched dir. */
  cwdRecord: null,
  /** fd -> open record not written yet (dropped unwritten when the fd closes first). An array: fds are small. */
  pendingByFd: [],
  /** The fds given a pending record since the last flush, so a flush never walks up to the highest fd. */
  pendingFds: [],
  /** Other records waiting for the next flush (dirs, closes, spawns), in order. */
  queue: [],
};
/** fd -> the open record of a descriptor no wrapped call opened, found in the process's own fd list. */
const listedByFd = new Map();
/** fd -> the open record already written for it: its close must be written too. */
const writtenByFd = new Map();
/**
 * fd -> { path } of a wrapped open whose asynchronous close (fs.close, FileHandle.close) is called and
 * not done: the thread pool runs the close later, and /proc/self/fd lists the fd until then.
 */
const closingByFd = new Map();
/** Open records of fds that closed unwritten, to capture into again. */
const spareOpens = [];

function safeCwd() {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

module.exports = {
  WIRE_VERSION,
  THREAD_ID_SPAN,
  NativeError,
  STACK_LIMIT,
  HOT_STACK_LIMIT,
  HOT_OPENS,
  FLUSH_DELAY_MS,
  MAX_WAIT_MS,
  SPARE_LIMIT,
  original,
  state,
  listedByFd,
  writtenByFd,
  closingByFd,
  spareOpens,
  noTest,
  safeCwd,
};

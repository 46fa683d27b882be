'use strict';
// Stacks, captured cheaply and formatted when written. The capture is nearly all of what the probe
// costs a file-heavy test: V8 keeps call sites and makes no text, and text is made only for a record
// that is written, which most never are (their fd closes first).
const path = require('node:path');
const { fileURLToPath } = require('node:url');
const { NativeError, STACK_LIMIT, HOT_STACK_LIMIT, HOT_OPENS, state, spareOpens } = require('./probe-state.cjs');

/** Frames of Node itself and of WebAssembly code: never the user's (core/stacks/runtime-frames.ts says why). */
const RUNTIME_FILE = /^(?:node:|wasm:\/\/|wasm-function\[|internal\/|native(?:\s|$)|<anonymous>$)/;
/** The probe's own files (every module beside this one): their frames (the runners' wrapped methods) are the probe's, not the user's. */
const PROBE_DIR = __dirname + path.sep;

/** Captures the caller's stack (frames above `above`) into `record.trace`: V8 keeps call sites, no text. */
function captureInto(record, above) {
  const limit = NativeError.stackTraceLimit;
  NativeError.stackTraceLimit = ++state.opensSinceFlush > HOT_OPENS ? HOT_STACK_LIMIT : STACK_LIMIT;
  NativeError.captureStackTrace(record.trace, above);
  NativeError.stackTraceLimit = limit;
  // The test that made the call (an async open, a stream's, may complete after that test ended).
  // openSync_ (wrap-fs.cjs) does this by hand: keep the two alike.
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

module.exports = { captureInto, captureOpen, newOpenRecord, formatStack };

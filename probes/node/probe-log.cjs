'use strict';
// The log writer. Records wait in memory, and an fd closed before the flush is never written: most
// fds a test opens close soon, so most records cost a capture and nothing more. A flush, FLUSH_DELAY_MS
// after the first waiting record (an unref'd timer), writes what is still open, with its open-time
// atMs: holdwatch reads the logs when the run ends and matches by fd, path, pid and atMs
// (core/stacks/match.ts), so a late write changes nothing it sees. Records are JSON lines in
// <HOLDWATCH_PROBE_LOG>/node-<pid>-<ms>.jsonl, the format the Python probe writes.
// A record becomes its wire line (core/stacks/records.ts, contract/probe-log.ts) only then: paths
// are resolved and stacks formatted when a record is written, not when it is made.
const path = require('node:path');
const { fileURLToPath } = require('node:url');
const { WIRE_VERSION, FLUSH_DELAY_MS, MAX_WAIT_MS, original, state, writtenByFd } = require('./probe-state.cjs');
const { formatStack } = require('./stacks.cjs');

/** Stops recording and says why, once, on stderr: nothing here may throw into the test. */
function disable(reason) {
  if (state.disabled) return;
  state.disabled = true;
  state.pendingByFd = [];
  state.pendingFds = [];
  writtenByFd.clear();
  state.queue = [];
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
  for (const record of state.queue) {
    if (record.dropped) continue;
    record.written = true;
    records.push(record);
  }
  state.queue = [];
  const pendingByFd = state.pendingByFd;
  for (const fd of state.pendingFds) {
    const record = pendingByFd[fd];
    if (record === undefined) continue; // closed, or already taken (an fd reused since the last flush)
    pendingByFd[fd] = undefined;
    writtenByFd.set(fd, record);
    records.push(record);
  }
  state.pendingFds = [];
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

function writeLines(text) {
  try {
    const bytes = Buffer.from(text);
    let offset = 0;
    while (offset < bytes.length) offset += original.writeSync(state.logFd, bytes, offset, bytes.length - offset);
  } catch (error) {
    disable(`cannot write the probe log: ${error.code ?? error.message}`);
  }
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

function toLine(record) {
  const pid = process.pid;
  switch (record.kind) {
    case 'open':
      return openLine(record, pid);
    case 'close':
      return { v: WIRE_VERSION, kind: 'close', pid, atMs: record.atMs, id: record.id, fd: record.fd };
    case 'test':
      return testLine(record, pid);
    case 'exit':
      return { v: WIRE_VERSION, kind: 'exit', pid, atMs: record.atMs, open: record.open, ...(record.thread ? { thread: record.thread } : {}) };
    case 'gc-close':
      return gcCloseLine(record, pid);
    case 'delete':
      return deleteLine(record, pid);
    default:
      return spawnLine(record, pid);
  }
}

function openLine(record, pid) {
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
}

function testLine(record, pid) {
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
}

function gcCloseLine(record, pid) {
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
}

function deleteLine(record, pid) {
  return {
    v: WIRE_VERSION,
    kind: 'delete',
    pid,
    atMs: record.atMs,
    api: record.api,
    path: record.path,
    held: record.held,
    cwd: record.cwd,
    ...(record.children.length > 0 ? { children: record.children } : {}),
    ...(typeof record.test === 'string' ? { test: record.test } : {}),
    frames: formatStack(record.trace),
  };
}

function spawnLine(record, pid) {
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

module.exports = { disable, internalError, schedule, flush, writeLines, toPath };

#!/usr/bin/env node
// holdwatch's bats formatter: reads bats' extended TAP stream on stdin ("begin N name", "ok N name",
// "not ok N name" and "# ..." comments), prints plain TAP on stdout, and writes the run's test
// timeline as JSON lines to the file named by HOLDWATCH_EVENTS (core/runners/events.ts's shape).
// Without HOLDWATCH_EVENTS it announces them to a running `holdwatch attach` (../holdwatch-announce.mjs).
//
// Use it as the formatter (bats wants an absolute path):
//   HOLDWATCH_BATS_FORMATTER=pretty bats --formatter /abs/path/holdwatch-bats-formatter.mjs tests/
// The output people read stays bats' own: the stream is forwarded to the built-in formatter named by
// HOLDWATCH_BATS_FORMATTER (pretty, tap, tap13, junit; default tap), with the flags bats gave us.
// Debian's bats 1.8.2 accepts only built-in names for --report-formatter, so this cannot ride there.
// If the built-in formatter cannot be found, this prints plain TAP itself.
//
// Why it exists: for a test whose body passed and whose teardown failed, bats prints only
// "not ok". Its trace comment says where it failed ("# (from function `teardown' in test file ..."),
// so this reports phase `call` passed and phase `teardown` error. Never breaks the run: every error
// here is swallowed, and after the first write error it stops writing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { argvOf, openEventsFile } from '../holdwatch-announce.mjs';

const PLAN = /^1\.\.(\d+)$/;
const BEGIN = /^begin (\d+) (.*)$/;
const SKIP = /^ok (\d+) (.*?)(?: in \d+ms)? # skip(?: (.*))?$/;
const OK = /^ok (\d+) (.*?)(?: in \d+ms)?$/;
const NOT_OK = /^not ok (\d+) (.*?)(?: in \d+ms)?(?: # timeout after \d+s)?$/;
/** Where bats says the failure happened: a hook function, or the test body itself. */
const FROM_HOOK = /^# \(from function `(setup|teardown)' in test file /;
const IN_BODY = /^# \(in test file /;

function openEvents(path) {
  // Without HOLDWATCH_EVENTS, announce to a running holdwatch: bats itself (our parent) is the run's root.
  return openEventsFile(path, () => ({ pid: process.ppid, argv: argvOf(process.ppid) ?? ['bats'], runner: 'bats' }));
}

/** bats puts its libexec dir (bats-format-*) on PATH for formatters. */
function startBuiltinFormatter() {
  const name = process.env.HOLDWATCH_BATS_FORMATTER || 'tap';
  if (!/^(pretty|tap|tap13|junit)$/.test(name)) return null;
  const exe = (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, `bats-format-${name}`))
    .find((p) => existsSync(p));
  if (!exe) return null;
  try {
    const child = spawn(exe, process.argv.slice(2), { stdio: ['pipe', 'inherit', 'inherit'] });
    child.stdin.on('error', () => {}); // a formatter that quits early must not crash us
    return child;
  } catch {
    return null;
  }
}

const events = openEvents(process.env.HOLDWATCH_EVENTS);
const builtin = startBuiltinFormatter();
/** Plain TAP when no built-in formatter took the stream; nothing when one did. */
const print = (line) => {
  if (!builtin) process.stdout.write(`${line}\n`);
};
let started = false;
let anyFailed = false;
/** A "not ok" waits for its comment lines, which say in which phase it failed. */
let failing = null;

function settleFailure() {
  if (!failing) return;
  const { name, atMs, comments } = failing;
  failing = null;
  anyFailed = true;
  const trace = comments.find((c) => FROM_HOOK.test(c) || IN_BODY.test(c));
  const hook = trace ? FROM_HOOK.exec(trace)?.[1] : undefined;
  const detail = comments.find((c) => c !== trace && c.trim() !== '#')?.replace(/^#\s*/, '');
  const withDetail = (e) => (detail ? { ...e, detail } : e);
  if (hook === 'teardown') {
    events.emit({ type: 'phase', name, phase: 'call', outcome: 'passed', atMs });
    events.emit(withDetail({ type: 'phase', name, phase: 'teardown', outcome: 'error', atMs }));
    events.emit({ type: 'test-end', name, outcome: 'error', atMs });
  } else if (hook === 'setup') {
    events.emit(withDetail({ type: 'phase', name, phase: 'setup', outcome: 'error', atMs }));
    events.emit({ type: 'test-end', name, outcome: 'error', atMs });
  } else {
    events.emit(withDetail({ type: 'test-end', name, outcome: 'failed', atMs }));
  }
}

function handle(line) {
  if (!started) {
    started = true;
    events.emit({ type: 'run-start', name: 'bats' });
  }
  if (line.startsWith('#')) {
    if (failing) failing.comments.push(line);
    print(line);
    return;
  }
  settleFailure();
  let m;
  if ((m = BEGIN.exec(line))) {
    events.emit({ type: 'test-start', name: m[2] });
    return; // extended syntax: not TAP
  }
  if (line.startsWith('suite ')) return; // extended syntax: not TAP
  if ((m = SKIP.exec(line))) events.emit({ type: 'test-end', name: m[2], outcome: 'skipped' });
  else if ((m = OK.exec(line))) events.emit({ type: 'test-end', name: m[2], outcome: 'passed' });
  else if ((m = NOT_OK.exec(line))) failing = { name: m[2], atMs: Date.now(), comments: [] };
  else if (!PLAN.test(line) && line.length === 0) return;
  print(line);
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (builtin) builtin.stdin.write(`${line}\n`);
  try {
    handle(line);
  } catch {
    // a probe never breaks the run
  }
});
lines.on('close', () => {
  try {
    settleFailure();
    if (started) events.emit({ type: 'run-end', name: 'bats', outcome: anyFailed ? 'failed' : 'passed' });
  } catch {
    // nothing more to report
  } finally {
    events.close();
    builtin?.stdin.end();
  }
});

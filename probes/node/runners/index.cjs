'use strict';
// Picks the in-process test tracker for the runner this process is part of, from the trackers the run's
// runner table names (HOLDWATCH_NODE_TRACKERS, host/run/runners/table.ts): the first whose process this
// is. Each tracker module exports `track(onStart, onEnd, onScopeEnd, file)`, which calls onStart(name)
// and onEnd(name, outcome, detail) as the runner's tests start and end in this process, and gives a
// getter of the test running now, and, where the runner transforms the code it runs, a mapper of stack
// positions back to the source (`mapPosition`), and maybe `atExit`, called as the process exits.
// `currentScope` names the wider scope running outside any test ({kind, name}: a suite's or a file's
// hooks, import time), whose end the tracker reports through onScopeEnd(name, kind), after that
// scope's after hooks; a scope with no reported end ends with the process. `writesTimeline` says
// whether the tracker's events are the run's test timeline (node --test has a reporter for that, in
// its parent; mocha, jest and vitest have none).
const path = require('node:path');

/**
 * `<tracker>:<pid>`, set by a runner's own process (a spec's `threadsOf`) for its worker threads, which
 * copy its environment: a thread of that pid is one of the runner's. A child process inherits the
 * variable under another pid, and ignores it.
 */
const THREADS_MARK = 'HOLDWATCH_THREADS_OF';

/** The runner's tracker for this process or thread, or null when it is none of theirs. `main` is argv[1] (none in a worker thread). */
function trackRunnerTests(env, main, onStart, onEnd, onScopeEnd) {
  const specs = trackersOf(env);
  const threadSpec = runnersThread(specs, env);
  const spec = threadSpec ?? specs.find((s) => isRunnersProcess(s, env, main));
  if (spec === undefined) {
    markThreads(specs, env, main);
    return null;
  }
  const { track, writesTimeline } = require(`./${spec.tracker}.cjs`);
  return { ...track(onStart, onEnd, onScopeEnd, fileNameOf(main)), timeline: writesTimeline };
}

function runnersThread(specs, env) {
  const [tracker, pid] = (env[THREADS_MARK] ?? '').split(':');
  return pid === String(process.pid) ? specs.find((s) => s.tracker === tracker && typeof s.threadsOf === 'string') : undefined;
}

function markThreads(specs, env, main) {
  const spec = specs.find((s) => typeof s.threadsOf === 'string' && matchesMain(s.threadsOf, main));
  if (spec !== undefined) env[THREADS_MARK] = `${spec.tracker}:${process.pid}`;
}

function trackersOf(env) {
  let specs;
  try {
    specs = JSON.parse(env.HOLDWATCH_NODE_TRACKERS ?? '[]');
  } catch {
    return [];
  }
  // A tracker is a module beside this one: its name is a plain word, never a path.
  return Array.isArray(specs) ? specs.filter((s) => typeof s?.tracker === 'string' && /^[a-z][a-z-]*$/.test(s.tracker)) : [];
}

function isRunnersProcess(spec, env, main) {
  if (typeof spec.variable === 'string') return claimedFromRunner(spec, env);
  return typeof spec.main === 'string' && matchesMain(spec.main, main);
}

function matchesMain(pattern, main) {
  if (typeof main !== 'string') return false;
  try {
    return new RegExp(pattern).test(main.split(path.sep).join('/'));
  } catch {
    return false;
  }
}

/**
 * A process its runner started to run tests sets `variable` for it; its descendants inherit the variable
 * yet run none of its tests (a detached writer a test spawned would otherwise name itself a test file):
 * the first process marks itself for them. A runner started again below it (`runnerFlag`) clears the mark.
 */
function claimedFromRunner(spec, env) {
  const mark = `HOLDWATCH_TRACKED_${spec.variable}`;
  if (process.execArgv.includes(spec.runnerFlag)) {
    delete env[mark];
    return false;
  }
  if (env[spec.variable] === undefined || env[mark] !== undefined) return false;
  env[mark] = String(process.pid);
  return true;
}

/**
 * The test file by its path from the working directory, one outside it by its whole path, `/`-separated:
 * as holdwatch's node:test reporter names it (probes/node-reporter/holdwatch-reporter.mjs).
 */
function fileNameOf(main) {
  if (typeof main !== 'string') return '<file>';
  const fromCwd = path.relative(process.cwd(), main);
  return (fromCwd.startsWith('..') || path.isAbsolute(fromCwd) ? main : fromCwd).split(path.sep).join('/');
}

module.exports = { trackRunnerTests };

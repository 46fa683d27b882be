'use strict';
// Picks the in-process test tracker for the runner this process is part of. Each tracker calls
// onStart(name) and onEnd(name, outcome, detail) as the runner's tests start and end in this process,
// and gives a getter of the test running now, and, where the runner transforms the code it runs, a
// mapper of stack positions back to the source (`mapPosition`), and maybe `atExit`, called as the process
// exits. `currentScope` names the wider scope running outside any test ({kind, name}: a suite's or a
// file's hooks, import time), whose end the tracker reports through onScopeEnd(name, kind), after that
// scope's after hooks; a scope with no reported end ends with the process. `timeline` says whether the
// tracker's events are the run's test timeline (mocha, jest and vitest have no holdwatch reporter;
// node --test has one, in its parent).
const path = require('node:path');
const { trackNodeTests } = require('./node-test.cjs');
const { trackMochaTests } = require('./mocha.cjs');
const { trackJestTests } = require('./jest.cjs');
const { trackVitestTests } = require('./vitest.cjs');

/**
 * Set by a node --test file's process for its descendants: they inherit NODE_TEST_CONTEXT from it, yet
 * run none of its tests (a detached writer a test spawned would otherwise name itself a test file).
 */
const FILE_PROCESS_PID = 'HOLDWATCH_NODE_TEST_FILE_PID';

/** The runner's tracker for this process, or null when it is none of theirs. `main` is argv[1]. */
function trackRunnerTests(env, main, onStart, onEnd, onScopeEnd) {
  // A node --test runner started by a test: the files it runs are test files again.
  if (process.execArgv.includes('--test')) delete env[FILE_PROCESS_PID];
  // A file node --test runs, in its own process; named by its path from the working directory.
  else if (env.NODE_TEST_CONTEXT && env[FILE_PROCESS_PID] === undefined) {
    env[FILE_PROCESS_PID] = String(process.pid);
    return { ...trackNodeTests(onStart, onEnd, onScopeEnd, fileNameOf(main)), timeline: false };
  }
  const parts = typeof main === 'string' ? main.split(/[\\/]/) : [];
  // mocha's bin (mocha, _mocha), its lib/cli, and its --parallel workers all live in its package.
  if (parts.includes('mocha') || /^_?mocha(\.js)?$/.test(path.basename(main ?? ''))) return { ...trackMochaTests(onStart, onEnd, onScopeEnd), timeline: true };
  // jest's bin, and jest-worker's child processes.
  if (parts.some((p) => p === 'jest' || p === 'jest-cli' || p === 'jest-worker')) return { ...trackJestTests(onStart, onEnd, onScopeEnd), timeline: true };
  // vitest's worker processes (its default pool, forks: vitest/dist/workers/forks.js).
  if (parts.includes('vitest') && parts.includes('workers')) return { ...trackVitestTests(onStart, onEnd, onScopeEnd), timeline: true };
  return null;
}

function fileNameOf(main) {
  if (typeof main !== 'string') return '<file>';
  return path.relative(process.cwd(), main).split(path.sep).join('/');
}

module.exports = { trackRunnerTests };

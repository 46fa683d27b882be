'use strict';
// Picks the in-process test tracker for the runner this process is part of. Each tracker calls
// onStart(name) and onEnd(name, outcome, detail) as the runner's tests start and end in this process,
// and gives a getter of the test running now, and, where the runner transforms the code it runs, a
// mapper of stack positions back to the source (`mapPosition`), and maybe `atExit`, called as the process
// exits. `timeline` says whether the tracker's events are the
// run's test timeline (mocha, jest and vitest have no holdwatch reporter; node --test has one, in its parent).
const path = require('node:path');
const { trackNodeTests } = require('./node-test.cjs');
const { trackMochaTests } = require('./mocha.cjs');
const { trackJestTests } = require('./jest.cjs');
const { trackVitestTests } = require('./vitest.cjs');

/** The runner's tracker for this process, or null when it is none of theirs. `main` is argv[1]. */
function trackRunnerTests(env, main, onStart, onEnd) {
  // A file node --test runs, in its own process; named by its path from the working directory.
  if (env.NODE_TEST_CONTEXT) return { ...trackNodeTests(onStart, onEnd, fileNameOf(main)), timeline: false };
  const parts = typeof main === 'string' ? main.split(/[\\/]/) : [];
  // mocha's bin (mocha, _mocha), its lib/cli, and its --parallel workers all live in its package.
  if (parts.includes('mocha') || /^_?mocha(\.js)?$/.test(path.basename(main ?? ''))) return { currentTest: trackMochaTests(onStart, onEnd), timeline: true };
  // jest's bin, and jest-worker's child processes.
  if (parts.some((p) => p === 'jest' || p === 'jest-cli' || p === 'jest-worker')) return { ...trackJestTests(onStart, onEnd), timeline: true };
  // vitest's worker processes (its default pool, forks: vitest/dist/workers/forks.js).
  if (parts.includes('vitest') && parts.includes('workers')) return { ...trackVitestTests(onStart, onEnd), timeline: true };
  return null;
}

function fileNameOf(main) {
  if (typeof main !== 'string') return '<file>';
  return path.relative(process.cwd(), main).split(path.sep).join('/');
}

module.exports = { trackRunnerTests };

'use strict';
// Which node:test test is running in this process, from inside it. A test file run by `node --test`
// is its own process (NODE_TEST_CONTEXT is set there); its tests run one after the other. node:test's
// Test is an AsyncResource of type 'Test': the first ones created reveal the classes, whose `run`
// (a test starts, hooks and all) and `postRun` (it has ended, its afterEach hooks included) are
// wrapped. Names are the reporter's: the nesting joined with ' > '. Subclasses (Suite) are created
// when describe() runs, before any test runs, so the hook that finds them is off by the first run.
// A file that declares no test is itself the test, as node --test reports it (holdwatch's reporter
// names it by its path from the working directory): it starts with the process and ends at its exit,
// and everything it opens is its own. In a file with tests, what runs outside them belongs to the
// innermost describe block running, else to the file. A describe block (a Suite) is a scope, not a
// test: its end, after its after hooks, goes to onScopeEnd. A before/after hook belongs to the block
// that declares it (the file, for a top-level one), though node:test runs a parent's before hooks
// inside its first child's run: `runHook` is wrapped to say so while such a hook runs.
// Nothing here may throw into the test process.
const asyncHooks = require('node:async_hooks');
const { guard } = require('./shared.cjs');

/**
 * Starts tracking; `onStart(name, atMs?)` and `onEnd(name, outcome)` are called in order. `file` is the test
 * file's name: the first part of every test's and suite's name, and the name of a file-level test. Returns the current test's getter and `atExit`, to call as the
 * process exits (the end of a file-level test).
 */
function trackNodeTests(onStart, onEnd, onScopeEnd, file) {
  const tracking = {
    onStart,
    onEnd,
    onScopeEnd,
    file,
    running: [],
    // The tests and suites whose before/after hooks run now, innermost last.
    hooksOf: [],
    anyTestRan: false,
    patched: new Set(),
    asyncHook: null,
  };
  tracking.asyncHook = asyncHooks.createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'Test' && resource) guard(() => patchTestClasses(tracking, Object.getPrototypeOf(resource)));
    },
  });
  tracking.asyncHook.enable();
  const startedAtMs = Date.now();
  const { running, hooksOf } = tracking;
  const innermost = (suite) => running.findLast((r) => r.suite === suite);
  const hookOwner = () => hooksOf.at(-1)?.test;
  return {
    currentTest: () => (hooksOf.length > 0 ? null : (innermost(false)?.name ?? (running.length > 0 || tracking.anyTestRan ? null : file))),
    currentScope: () => {
      const owner = hookOwner();
      // A hook of a test (its subtests' before/after) is that test's; of the root, the file's.
      if (owner !== undefined) return owner.parent ? { kind: 'suite', name: nameOf(tracking, owner) } : { kind: 'file', name: file };
      const suite = innermost(true);
      return suite ? { kind: 'suite', name: suite.name } : { kind: 'file', name: file };
    },
    // Only now is it known that no test ran: the file-level test is written whole, from the start of the process.
    atExit: () => {
      if (tracking.anyTestRan) return;
      guard(() => onStart(file, startedAtMs));
      guard(() => onEnd(file, process.exitCode ? 'failed' : 'passed'));
    },
  };
}

function isSuite(test) {
  return test?.constructor?.name === 'Suite';
}

/** `<file> > <suite> > <test>`: the file first, as the reporter names it (node --test nests tests by file). */
function nameOf(tracking, test) {
  const names = [];
  for (let t = test; t && t.parent; t = t.parent) names.unshift(String(t.name));
  return [tracking.file, ...names].join(' > ');
}

/** Wraps `run`, `runHook` and `postRun` where `proto` or a class it extends defines them, once per class. */
function patchTestClasses(tracking, proto) {
  for (let p = proto; p && p !== Object.prototype && !tracking.patched.has(p); p = Object.getPrototypeOf(p)) {
    tracking.patched.add(p);
    const own = Object.getOwnPropertyNames(p);
    if (own.includes('run') && typeof p.run === 'function') wrapRun(tracking, p);
    if (own.includes('runHook') && typeof p.runHook === 'function') wrapRunHook(tracking, p);
    if (own.includes('postRun') && typeof p.postRun === 'function') wrapPostRun(tracking, p);
  }
}

/** A test or suite starts, hooks and all. By the first run every class is known: the async hook goes. */
function wrapRun(tracking, proto) {
  const run = proto.run;
  proto.run = function holdwatchRun(...args) {
    if (tracking.asyncHook !== null) {
      tracking.asyncHook.disable();
      tracking.asyncHook = null;
    }
    if (this.parent) {
      const name = nameOf(tracking, this);
      const suite = isSuite(this);
      tracking.running.push({ test: this, name, suite });
      if (!suite) {
        tracking.anyTestRan = true;
        guard(() => tracking.onStart(name));
      }
    }
    return run.apply(this, args);
  };
}

/** While a before/after hook runs, it belongs to the test or suite that declares it. */
function wrapRunHook(tracking, proto) {
  const runHook = proto.runHook;
  const hooksOf = tracking.hooksOf;
  proto.runHook = function holdwatchRunHook(hook, ...rest) {
    if (hook !== 'before' && hook !== 'after') return runHook.call(this, hook, ...rest);
    const entry = { test: this };
    hooksOf.push(entry);
    const leave = () => {
      const at = hooksOf.lastIndexOf(entry);
      if (at >= 0) hooksOf.splice(at, 1);
    };
    try {
      const result = runHook.call(this, hook, ...rest);
      return result && typeof result.finally === 'function' ? result.finally(leave) : (leave(), result);
    } catch (error) {
      leave();
      throw error;
    }
  };
}

/** A test or suite has ended, its afterEach (or after) hooks included. */
function wrapPostRun(tracking, proto) {
  const postRun = proto.postRun;
  proto.postRun = function holdwatchPostRun(...args) {
    const at = tracking.running.findLastIndex((r) => r.test === this);
    if (at >= 0) {
      const [{ name, suite }] = tracking.running.splice(at, 1);
      guard(() => (suite ? tracking.onScopeEnd(name, 'suite') : tracking.onEnd(name)));
    }
    return postRun.apply(this, args);
  };
}

module.exports = { track: trackNodeTests, writesTimeline: false };

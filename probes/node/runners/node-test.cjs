'use strict';
// Which node:test test is running in this process, from inside it. A test file run by `node --test`
// is its own process (NODE_TEST_CONTEXT is set there); its tests run one after the other. node:test's
// Test is an AsyncResource of type 'Test': the first ones created reveal the classes, whose `run`
// (a test starts, hooks and all) and `postRun` (it has ended, its afterEach hooks included) are
// wrapped. Names are the reporter's: the nesting joined with ' > '. Subclasses (Suite) are created
// when describe() runs, before any test runs, so the hook that finds them is off by the first run.
// Nothing here may throw into the test process.
const asyncHooks = require('node:async_hooks');
const { guard } = require('./shared.cjs');

/** Starts tracking; `onStart(name)` and `onEnd(name, outcome)` are called in order. Returns a getter of the current test's name, or null. */
function trackNodeTests(onStart, onEnd) {
  const running = [];
  const patched = new Set();
  let hook = null;
  const nameOf = (test) => {
    const names = [];
    for (let t = test; t && t.parent; t = t.parent) names.unshift(String(t.name));
    return names.join(' > ');
  };
  const patch = (proto) => {
    for (let p = proto; p && p !== Object.prototype && !patched.has(p); p = Object.getPrototypeOf(p)) {
      patched.add(p);
      const own = Object.getOwnPropertyNames(p);
      if (own.includes('run') && typeof p.run === 'function') {
        const run = p.run;
        p.run = function holdwatchRun(...args) {
          if (hook !== null) {
            hook.disable();
            hook = null;
          }
          if (this.parent) {
            const name = nameOf(this);
            running.push({ test: this, name });
            guard(() => onStart(name));
          }
          return run.apply(this, args);
        };
      }
      if (own.includes('postRun') && typeof p.postRun === 'function') {
        const postRun = p.postRun;
        p.postRun = function holdwatchPostRun(...args) {
          const at = running.findLastIndex((r) => r.test === this);
          if (at >= 0) {
            const [{ name }] = running.splice(at, 1);
            guard(() => onEnd(name));
          }
          return postRun.apply(this, args);
        };
      }
    }
  };
  hook = asyncHooks.createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'Test' && resource) guard(() => patch(Object.getPrototypeOf(resource)));
    },
  });
  hook.enable();
  return () => (running.length === 0 ? null : running[running.length - 1].name);
}

module.exports = { trackNodeTests };

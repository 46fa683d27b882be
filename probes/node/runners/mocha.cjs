'use strict';
// Which mocha test is running in this process, from inside it: mocha runs its tests in the process
// that loaded it (each worker, with --parallel). Two of its Runner's methods are wrapped:
// hookDown('beforeEach') starts a test (its beforeEach hooks are the test's), and the callback of
// hookUp('afterEach') ends it, once its afterEach hooks have all run. Names are the title path joined
// with ' > '. Nothing here may throw into the test process.
const { EventEmitter } = require('node:events');
const { firstLineOf, guard } = require('./shared.cjs');

/**
 * Starts tracking at mocha's first suite; `onStart(name)` and `onEnd(name, outcome, detail)` are called
 * in order, and `onScopeEnd(name, kind)` when a suite has ended, its after hooks run. Returns the
 * current test's and the current scope's getters.
 */
function trackMochaTests(onStart, onEnd, onScopeEnd) {
  let current = null;
  // The suites running now, outermost (the root: the whole session) first.
  const suites = [];
  const scopeOf = () => {
    const names = suites.filter((s) => !s.root).map((s) => String(s.title));
    return names.length === 0 ? { kind: 'session', name: 'mocha' } : { kind: 'suite', name: names.join(' > ') };
  };
  const follow = (runner) => {
    runner.on('suite', (suite) => suites.push(suite));
    runner.on('suite end', () =>
      guard(() => {
        const { kind, name } = scopeOf();
        suites.pop();
        onScopeEnd(name, kind);
      }),
    );
  };
  const ended = new WeakSet();
  const nameOf = (test) => (typeof test.titlePath === 'function' ? test.titlePath() : [test.title]).map(String).join(' > ');
  const patch = (proto) => {
    const { hookDown, hookUp } = proto;
    proto.hookDown = function holdwatchHookDown(name, fn) {
      if (name === 'beforeEach' && this.test && !ended.has(this.test)) {
        current = { test: this.test, name: nameOf(this.test) };
        guard(() => onStart(current.name));
      }
      return hookDown.call(this, name, fn);
    };
    proto.hookUp = function holdwatchHookUp(name, fn) {
      const test = this.test;
      if (name !== 'afterEach' || !test || current === null || current.test !== test) return hookUp.call(this, name, fn);
      return hookUp.call(this, name, function holdwatchAfterEachDone(error, ...rest) {
        if (!ended.has(test)) {
          ended.add(test);
          const { name: title } = current;
          current = null;
          guard(() => onEnd(title, error ? 'error' : outcomeOf(test), firstLineOf(error ?? test.err)));
        }
        return fn.call(this, error, ...rest);
      });
    };
  };
  // mocha's Runner is an EventEmitter whose first 'suite' event (the root suite's) comes before any
  // hook runs. Found by that event, whatever loaded mocha (require, or import: mocha 12 is ESM), its
  // prototype is patched, its suites are followed, and EventEmitter's emit is itself again.
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function holdwatchEmit(event, ...args) {
    if ((event === 'suite' || event === 'test') && isMochaRunner(this)) {
      EventEmitter.prototype.emit = emit;
      guard(() => patch(Object.getPrototypeOf(this)));
      guard(() => follow(this));
      if (event === 'suite') suites.push(args[0]); // this event's own listeners were called before ours joined
    }
    return emit.call(this, event, ...args);
  };
  return { currentTest: () => (current === null ? null : current.name), currentScope: scopeOf };
}

function isMochaRunner(emitter) {
  const Runner = emitter?.constructor;
  return (
    typeof Runner === 'function' &&
    Runner.constants?.EVENT_TEST_BEGIN === 'test' &&
    typeof emitter.hookUp === 'function' &&
    typeof emitter.hookDown === 'function'
  );
}

function outcomeOf(test) {
  if (test.state === 'failed') return 'failed';
  if (test.state === 'pending' || test.pending) return 'skipped';
  return 'passed';
}

module.exports = { track: trackMochaTests, writesTimeline: true };

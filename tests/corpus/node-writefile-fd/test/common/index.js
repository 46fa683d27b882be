'use strict';
// The few helpers of nodejs/node's test/common (MIT; see ../../README.md) the test uses, in their
// meaning there: a callback that must be called (checked at exit), one that must get no error, and
// one that must get the expected error.

const assert = require('assert');

const isWindows = process.platform === 'win32';
const mustCallChecks = [];

process.on('exit', () => {
  for (const check of mustCallChecks) {
    assert.strictEqual(check.actual, check.exact, `mustCall: ${check.name} called ${check.actual} times, expected ${check.exact}`);
  }
});

function mustCall(fn = () => {}, exact = 1) {
  const check = { name: fn.name || '<anonymous>', exact, actual: 0 };
  mustCallChecks.push(check);
  return function(...args) {
    check.actual++;
    return fn.apply(this, args);
  };
}

function mustSucceed(fn) {
  return mustCall(function(err, ...args) {
    assert.ifError(err);
    if (typeof fn === 'function') return fn.apply(this, args);
  });
}

function expectsError(validator) {
  return mustCall((error) => {
    assert.throws(() => { throw error; }, validator);
  });
}

module.exports = { isWindows, mustCall, mustSucceed, expectsError };

'use strict';
// What every wrapper of a Node API needs: to look like the function it replaces, and to keep the
// probe's own failures out of the test.
const { internalError } = require('./probe-log.cjs');

/** A wrapper that looks like the original: same name, length and own properties (promisify.custom...). */
function likeOriginal(wrapper, target) {
  if (typeof target !== 'function') return wrapper;
  for (const key of Reflect.ownKeys(target)) {
    if (key === 'prototype' || key === 'arguments' || key === 'caller') continue;
    try {
      Object.defineProperty(wrapper, key, Object.getOwnPropertyDescriptor(target, key));
    } catch {
      // a non-configurable property of the wrapper: keep the wrapper's own
    }
  }
  return wrapper;
}

/** Calls `fn` with up to five arguments; what it throws disables the probe instead of reaching the test. */
function guard(fn, a, b, c, d, e) {
  try {
    fn(a, b, c, d, e);
  } catch (error) {
    internalError(error);
  }
}

/** The callback-last arguments of an fs call with its callback replaced. */
function withCallback(args, callback) {
  const copy = Array.prototype.slice.call(args);
  copy[copy.length - 1] = callback;
  return copy;
}

module.exports = { likeOriginal, guard, withCallback };

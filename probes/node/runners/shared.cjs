'use strict';
// What the runner trackers share: they run inside the test process, so nothing may throw out of them.

/** Runs `fn`; whatever it throws stays here: a probe must never break the test run. */
function guard(fn) {
  try {
    fn();
  } catch {
    // the run goes on without this record
  }
}

/** The first non-blank line of an error's message (or of a string), at most 500 characters. */
function firstLineOf(error) {
  const message = error && typeof error.message === 'string' ? error.message : typeof error === 'string' ? error : null;
  if (message === null) return undefined;
  return message
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 500);
}

module.exports = { guard, firstLineOf };

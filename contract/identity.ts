// Identity keys of holders and processes: a process is (pid, start time), never pid alone. zod-free
// (types only), so core's watch and the CLI's start-up path use them without loading zod.
import type { Holder } from './holders.js';

const holderKeys = new WeakMap<Holder, string>();

/**
 * Identity of a holder row: the process by (pid, start time), never pid alone. Cached per object:
 * backends hand back the same object for an unchanged row, so a steady-state poll builds and hashes
 * no new key strings: a diff of thousands of unchanged rows stays cheap.
 */
export function holderKey(h: Holder): string {
  let key = holderKeys.get(h);
  if (key === undefined) {
    key = uncachedHolderKey(h);
    holderKeys.set(h, key);
  }
  return key;
}

/**
 * holderKey without the cache, for an object met once: the UI's events arrive as fresh objects, and
 * a first scan's 20,000 WeakMap entries cost more than the keys themselves. Joined, not a template
 * literal: that builds a rope, which a Map must flatten before it hashes it (20,000 fresh keys into
 * a Map: 2.5-3.5x as long in Chromium).
 */
export function uncachedHolderKey(h: Holder): string {
  return [h.pid, h.processStartedAtMs, h.kind, h.handle ?? '', h.path].join('/');
}

/** Identity of a process: (pid, start time), since a pid alone may be reused. */
export function processKey(h: { pid: number; processStartedAtMs: number }): string {
  return `${h.pid}:${h.processStartedAtMs}`;
}

/**
 * What a holding shares with the copy a child inherits: kind, path and fd number (fds keep their
 * numbers across fork and exec), without the process. The record folds such copies into the
 * parent's row, and the app drops a live copy of a recorded one, by this key.
 */
export function inheritedCopyKey(h: Pick<Holder, 'kind' | 'path' | 'handle'>): string {
  return `${h.kind}\0${h.path}\0${h.handle ?? ''}`;
}

'use strict';
// The test process's own list of what it holds under the watched dirs, read from inside at a scope's
// start and end: /proc/self/fd's links name every descriptor, whoever opened it (a native addon such
// as better-sqlite3, a WASM VFS, fs calls the probe does not wrap). The working directory is the
// probe's process.chdir wrapper's to follow. Reading it takes a readlink per descriptor, no round trip to holdwatch, so a
// loaded machine does not multiply its cost. Linux only: elsewhere `listHeld` returns null and the run
// falls back to holdwatch's scans.
const fs = require('node:fs');
const path = require('node:path');

const FD_DIR = '/proc/self/fd';
const DELETED = ' (deleted)';

/** The watched dirs as HOLDWATCH_WATCHED names them (path.delimiter-separated), each ending in a separator. */
function watchedPrefixes(env) {
  const value = env.HOLDWATCH_WATCHED;
  if (!value) return [];
  return value
    .split(path.delimiter)
    .filter((dir) => dir.startsWith('/'))
    .map((dir) => (dir.endsWith('/') ? dir : dir + '/'));
}

/** `p` is a watched dir (`prefixes` end in a separator) or lies under one. */
function isWatched(prefixes, p) {
  return prefixes.some((prefix) => p.startsWith(prefix) || p + '/' === prefix);
}

/**
 * Every descriptor of this process on a path at or under a watched dir; `skip` are the probe's own
 * descriptors. Null where /proc is not there to ask.
 */
function listHeld(prefixes, skip, readdirSync = fs.readdirSync, readlinkSync = fs.readlinkSync) {
  if (process.platform !== 'linux' || prefixes.length === 0) return null;
  let names;
  try {
    names = readdirSync(FD_DIR);
  } catch {
    return null;
  }
  const fds = [];
  for (const name of names) {
    const fd = Number(name);
    if (skip.includes(fd)) continue;
    let target;
    try {
      target = readlinkSync(`${FD_DIR}/${name}`);
    } catch {
      continue; // the listing's own descriptor, or one closed since
    }
    const deleted = target.endsWith(DELETED);
    const file = deleted ? target.slice(0, -DELETED.length) : target;
    if (file.startsWith('/') && isWatched(prefixes, file)) fds.push({ fd, path: file, deleted });
  }
  return fds;
}

module.exports = { isWatched, listHeld, watchedPrefixes };

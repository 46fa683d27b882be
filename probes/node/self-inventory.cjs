'use strict';
// The test process's own list of what it holds under the watched dirs, read from inside at a scope's
// start and end: /proc/self/fd's links name every descriptor, whoever opened it (a native addon such
// as better-sqlite3, a WASM VFS, fs calls the probe does not wrap). The working directory is the
// probe's process.chdir wrapper's to follow. No round trip to holdwatch, so a loaded machine does not
// multiply its cost. Linux only: elsewhere `held` returns null and the run falls back to holdwatch's
// scans.
//
// A test process keeps a score of descriptors from test to test, nearly all pipes, sockets and
// anonymous inodes (the runner's channels, the event loop's epoll and eventfds), and a readlink through
// /proc costs four times an fstat. A descriptor whose link named no path (`pipe:[…]`, `socket:[…]`,
// `anon_inode:…`) names none while fstat finds the same (dev, inode) there: such inodes never gain a
// path. Nor does a character device under /dev (/dev/null, a tty) leave it. So those are fstat'ed, not
// read again; any other descriptor with a path is read at every listing (a rename moves it in or out).
// And since Linux 6.2 a stat of /proc/self/fd gives the number of open descriptors (checked against
// each full listing: where it does not, every listing is a full one). When it is the number the last
// listing found, and each of those is still open as it was, no descriptor can be new, and the
// directory is not read at all.
const fs = require('node:fs');
const path = require('node:path');

const FD_DIR = '/proc/self/fd';
const DELETED = ' (deleted)';
const DEVICES = '/dev/';

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

/** Reads a descriptor's link: its file (null for a pipe, a socket, an anonymous inode); null when closed. */
function readTarget(calls, fd) {
  let link;
  try {
    link = calls.readlinkSync(`${FD_DIR}/${fd}`);
  } catch {
    return null; // the listing's own descriptor, or one closed since
  }
  if (!link.startsWith('/')) return { file: null, deleted: false };
  const deleted = link.endsWith(DELETED);
  return { file: deleted ? link.slice(0, -DELETED.length) : link, deleted };
}

function sameInode(calls, fd, entry) {
  try {
    const stat = calls.fstatSync(fd);
    return stat.ino === entry.ino && stat.dev === entry.dev;
  } catch {
    return false;
  }
}

/**
 * One process's lister of its own descriptors under `prefixes`; `calls` are the fs functions it uses
 * (the probe passes those it took before wrapping any).
 */
class SelfInventory {
  constructor(prefixes, calls = fs) {
    this.prefixes = prefixes;
    this.calls = calls;
    // fd -> what the last listing found there: { dev, ino } for a descriptor with no path, `true` for
    // one with a path (read again each time), `false` for one of the probe's own.
    this.known = new Map();
    // The stat's size was the count the last full listing found: this kernel reports the count there.
    this.counts = false;
  }

  /**
   * Every descriptor of this process on a path at or under a watched dir; `skip` are the probe's own
   * descriptors. Null where /proc is not there to ask.
   */
  held(skip) {
    if (process.platform !== 'linux' || this.prefixes.length === 0) return null;
    if (this.sameCount() && this.unchangedSince(skip)) {
      const found = this.rereadPaths();
      if (found !== null) return found;
    }
    return this.listAll(skip);
  }

  /** As many descriptors open as the last listing found: one stat, where the kernel counts them there. */
  sameCount() {
    return this.counts && this.openCount() === this.known.size;
  }

  /** Still open as the last listing found it, for every descriptor that listing found. */
  unchangedSince(skip) {
    for (const [fd, entry] of this.known) {
      if (entry === false) {
        if (!skip.includes(fd)) return false;
      } else if (entry !== true && !sameInode(this.calls, fd, entry)) return false;
    }
    return true;
  }

  /** The last listing's descriptors with a path, read again; null when one has closed since. */
  rereadPaths() {
    const found = [];
    for (const [fd, entry] of this.known) {
      if (entry !== true) continue;
      const target = readTarget(this.calls, fd);
      if (target === null) return null;
      if (target.file !== null && isWatched(this.prefixes, target.file)) found.push({ fd, path: target.file, deleted: target.deleted });
    }
    return found;
  }

  openCount() {
    try {
      return this.calls.statSync(FD_DIR).size;
    } catch {
      return 0;
    }
  }

  /**
   * As `held`, where a listing's fstats cost too much for how often it comes (before every delete a
   * test makes): a descriptor the last listing found with no path is taken to be what it was, so only
   * numbers new since and descriptors with a path are read. A number that an open no wrapper sees took
   * over from one of those meanwhile (a socket closed, a database opened in its place) is left to the
   * next full listing, at the test's end, which checks every identity. Null where `held` would be.
   */
  heldQuickly(skip) {
    if (process.platform !== 'linux' || this.prefixes.length === 0) return null;
    return this.known.size === 0 ? this.held(skip) : this.list(skip, false);
  }

  listAll(skip) {
    return this.list(skip, true);
  }

  /** Reads the directory; a descriptor with no path the last listing found is fstat'ed (`checkInodes`) or taken as it was. */
  list(skip, checkInodes) {
    let names;
    try {
      names = this.calls.readdirSync(FD_DIR);
    } catch {
      return null;
    }
    const last = this.known;
    this.known = new Map();
    const found = [];
    for (const name of names) {
      const fd = Number(name);
      const entry = last.get(fd);
      const noPath = !skip.includes(fd) && entry !== undefined && entry !== true && entry !== false;
      if (noPath && (!checkInodes || sameInode(this.calls, fd, entry))) this.known.set(fd, entry);
      else this.look(fd, skip, found);
    }
    if (checkInodes) this.counts = this.known.size > 0 && this.openCount() === this.known.size;
    return found;
  }

  /** Reads descriptor `fd` into `known` as it is now; one under the watched dirs goes into `found`. */
  look(fd, skip, found) {
    if (skip.includes(fd)) {
      this.known.set(fd, false);
      return;
    }
    const target = readTarget(this.calls, fd);
    if (target === null) return;
    if (target.file === null) this.rememberInode(fd);
    else if (isWatched(this.prefixes, target.file)) {
      this.known.set(fd, true);
      found.push({ fd, path: target.file, deleted: target.deleted });
    } else if (!target.file.startsWith(DEVICES) || !this.rememberInode(fd, true)) this.known.set(fd, true);
  }

  /** Remembers `fd` by its inode (only if it is a character device, with `devicesOnly`); false when it is not. */
  rememberInode(fd, devicesOnly = false) {
    let stat;
    try {
      stat = this.calls.fstatSync(fd);
    } catch {
      return true; // closed since
    }
    if (devicesOnly && !stat.isCharacterDevice()) return false;
    this.known.set(fd, { dev: stat.dev, ino: stat.ino });
    return true;
  }
}

module.exports = { isWatched, SelfInventory, watchedPrefixes };

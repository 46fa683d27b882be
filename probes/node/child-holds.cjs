'use strict';
// What this process's live children hold under a path it is about to delete. On Windows a child's open
// handle or working directory there makes the parent's delete fail (EBUSY, WinError 32) just as the
// parent's own would: `child.kill()` only asks, and the child is still there when the cleanup's rmSync
// runs. Linux: each child's /proc/<pid>/cwd and /proc/<pid>/fd links, read only while a child this
// process spawned has not yet been reaped (its 'exit' not yet emitted), so a delete with no live child
// reads nothing. A grandchild (a shell's child) is not looked at. On Windows the equivalent is each
// child's handles (NtQuerySystemInformation's handle table, NtQueryObject for names) and its PEB's
// CurrentDirectory: ntdll through koffi, which the probe does not load, so it is left out there.
const fs = require('node:fs');
const { original } = require('./probe-state.cjs');
const { isWatched } = require('./self-inventory.cjs');

const DELETED = ' (deleted)';
/** Pids of the ChildProcesses this process started that have not exited yet. */
const liveChildren = new Set();

/** Follows a ChildProcess until its 'exit': while it lives, a delete asks what it holds. */
function trackChild(child) {
  if (process.platform !== 'linux' || !child || typeof child.pid !== 'number' || typeof child.once !== 'function') return;
  const pid = child.pid;
  liveChildren.add(pid);
  child.once('exit', () => liveChildren.delete(pid));
}

function readLink(link) {
  try {
    const target = original.readlinkSync(link);
    return target.endsWith(DELETED) ? target.slice(0, -DELETED.length) : target;
  } catch {
    return null; // gone since, or a zombie: it holds nothing now
  }
}

/**
 * What the live children hold at or under `gone` (resolved) within the `watched` prefixes, as
 * `{ pid, fd, path }` (fd null: the working directory). Empty, and no /proc read, with no live child.
 */
function childHoldsUnder(gone, watched) {
  if (liveChildren.size === 0 || !touchesWatched(gone, watched)) return [];
  // The links name the canonical path; the code may have named a symlinked one.
  const roots = [gone, realpathOr(gone)];
  const under = (p) => p !== null && isWatched(watched, p) && roots.some((root) => p === root || p.startsWith(root.endsWith('/') ? root : root + '/'));
  const holds = [];
  for (const pid of liveChildren) {
    const cwd = readLink(`/proc/${pid}/cwd`);
    if (under(cwd)) holds.push({ pid, fd: null, path: cwd });
    let fds;
    try {
      fds = original.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const name of fds) {
      const target = readLink(`/proc/${pid}/fd/${name}`);
      if (under(target)) holds.push({ pid, fd: Number(name), path: target });
    }
  }
  return holds;
}

/** `gone` lies in a watched dir, or a watched dir lies in it (`watched` end in a separator). */
function touchesWatched(gone, watched) {
  const dir = gone.endsWith('/') ? gone : gone + '/';
  return watched.some((prefix) => dir.startsWith(prefix) || prefix.startsWith(dir));
}

function realpathOr(p) {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}

module.exports = { trackChild, childHoldsUnder };

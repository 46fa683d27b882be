// Announcing a run that holdwatch did not start (the user added the bats formatter or the Node reporter
// by hand, an IDE's test button ran it): with no HOLDWATCH_EVENTS, the probe writes its events to
// <data dir>/inbox/<pid>-<random>.jsonl, where a running `holdwatch attach` picks them up. Only when
// that inbox exists (holdwatch creates it), so a user without holdwatch pays one stat() and no file.
// The data dir is found as host/data-dir.ts finds it; keep the two in step.
import { closeSync, constants, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function inboxDir(env = process.env, platform = process.platform) {
  if (env.HOLDWATCH_DATA_DIR) return join(env.HOLDWATCH_DATA_DIR, 'inbox');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'holdwatch', 'inbox');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'holdwatch', 'inbox');
}

/** A process's argv from /proc (Linux), for a runner that is our parent; null elsewhere or when gone. */
export function argvOf(pid) {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv.at(-1) === '') argv.pop();
    return argv.length > 0 ? argv : null;
  } catch {
    return null;
  }
}

/**
 * Opens a new announce file whose first line names the runner process (`pid`, `argv`), or returns
 * null when no holdwatch listens or anything fails: a probe never breaks the run.
 */
export function openAnnounced({ pid, argv, runner }) {
  let fd = null;
  try {
    const inbox = inboxDir();
    if (!statSync(inbox, { throwIfNoEntry: false })?.isDirectory()) return null;
    const path = join(inbox, `${pid}-${randomHex8()}.jsonl`);
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o644);
    // One write, so holdwatch never sees half a header.
    writeSync(fd, `${JSON.stringify({ type: 'announce', pid, cwd: process.cwd(), argv, runner, atMs: Date.now() })}\n`);
    return fd;
  } catch {
    if (fd !== null) {
      try {
        closeSync(fd);
      } catch {
        // nothing more to do
      }
    }
    return null;
  }
}

/**
 * A name's random part. Not node:crypto, whose load costs the test runner's process more than the whole
 * announcement: the name needs only to differ from another process's, and O_EXCL refuses a clash.
 */
function randomHex8() {
  return Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0');
}

/**
 * The one owner of a probe's events file: HOLDWATCH_EVENTS when holdwatch started the run, else an
 * announcement to a running holdwatch (`announce`, see openAnnounced). Each event is one JSON line,
 * written through at once and stamped now unless it carries its own `atMs`. Never throws into the
 * test process: after the first write error it stops writing.
 */
export function openEventsFile(path, announce) {
  let fd = null;
  try {
    fd = path ? openSync(path, 'a') : openAnnounced(announce());
  } catch {
    fd = null;
  }
  return {
    emit(event) {
      if (fd === null) return;
      try {
        writeSync(fd, `${JSON.stringify({ atMs: Date.now(), ...event })}\n`);
      } catch {
        fd = null; // stop writing; the run goes on
      }
    },
    close() {
      const open = fd;
      fd = null;
      if (open === null) return;
      try {
        closeSync(open);
      } catch {
        // nothing to do: the events are already written through
      }
    },
  };
}

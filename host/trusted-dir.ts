// Whether a directory is this user's alone, so that nothing in it can be swapped by another user. A
// data dir in a shared folder would let another user plant a link where holdwatch writes (the run
// marker, a journal, a probes dir), and a holdwatch running as root would write or chmod through it;
// it would also let them plant the Go exit-stop program a run executes. So the dir must belong to
// this user and be writable by no one else, and every dir above it must belong to this user or root
// and be writable by no one else unless sticky (/tmp: others may add entries, not rename ours).
import { realpathSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { BadInputError } from '../core/errors.js';

const STICKY = 0o1000;
const GROUP_WRITE = 0o020;
const OTHERS_WRITE = 0o002;

/** Throws BadInputError (one line, naming what to change) unless `dir` is this user's alone; off POSIX, nothing to check. */
export function checkTrustedDir(dir: string, what: string): void {
  const uid = process.geteuid?.();
  if (uid === undefined) return;
  const real = realpathSync(dir);
  const own = statSync(real);
  if (!own.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
  if (own.uid !== uid) throw refusal(what, dir, `belongs to uid ${own.uid}, not to this user (uid ${uid})`);
  const writers = othersWhoWrite(own, { above: false });
  if (writers) throw refusal(what, dir, `is writable by ${writers} (mode ${modeText(own)})`, `\`chmod go-w ${real}\` or `);
  for (let above = dirname(real); ; above = dirname(above)) {
    const stats = statSync(above);
    if (stats.uid !== uid && stats.uid !== 0) throw refusal(what, dir, `lies in ${above}, which belongs to uid ${stats.uid}`);
    const aboveWriters = othersWhoWrite(stats, { above: true });
    if (aboveWriters) throw refusal(what, dir, `lies in ${above}, which ${aboveWriters} can write (mode ${modeText(stats)})`);
    if (dirname(above) === above) return;
  }
}

/**
 * Who besides the owner may add, remove or rename entries. Above the dir, a sticky dir lets others add
 * entries only, and a dir writable by one's own primary group (a user-private group) is passed.
 */
function othersWhoWrite(stats: Stats, { above }: { above: boolean }): string | null {
  if (above && stats.mode & STICKY) return null;
  if (stats.mode & OTHERS_WRITE) return 'every user';
  if (stats.mode & GROUP_WRITE && !(above && stats.gid === process.getegid?.())) return `group ${stats.gid}`;
  return null;
}

function refusal(what: string, dir: string, reason: string, fix = ''): BadInputError {
  return new BadInputError(
    `${what} ${dir} ${reason}, so another user could change what holdwatch writes there: ${fix}set HOLDWATCH_DATA_DIR to a directory of your own`,
  );
}

function modeText(stats: Stats): string {
  return (stats.mode & 0o7777).toString(8).padStart(4, '0');
}

// holdwatch's data directory: XDG on Linux, %LOCALAPPDATA% on Windows, HOLDWATCH_DATA_DIR to override.
// Run journals live here, never inside a watched directory. The front end finds it once (dataDirOf)
// and hands it to the host. probes/holdwatch-announce.mjs finds the same dir on its own (probes may
// not import our code): keep the two in step.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isUnder, pathStyleOf } from '../core/paths.js';
import type { WatchDir } from '../core/platform.js';
import { makePrivateDir } from './private-files.js';
import { BadInputError } from '../core/errors.js';
import { refuseInsideWatched } from './watched-dirs.js';

export { dataDirOf } from './data-dir-path.js';

/** Where run journals live; runsDir() checks and creates it before anything is written there. */
export function runsPathIn(dataDir: string): string {
  return join(dataDir, 'runs');
}

/**
 * The runs folder, created; refuses a data dir inside a watched dir (holdwatch never writes there), and
 * one that other users could change (trusted-dir.ts). With `onFallback`, a data dir the disk will not
 * take (read-only, full) costs the run its place there, not the run: it is recorded in a new private
 * dir under the system's temp dir instead, and `onFallback` gets the one line that says where.
 */
export function runsDir(dataDir: string, watched: readonly WatchDir[], onFallback?: (line: string) => void): string {
  const dir = runsPathIn(dataDir);
  refuseInsideWatched(dir, watched, (w) => `the data directory ${dir} is inside the watched directory ${w.display}; set HOLDWATCH_DATA_DIR elsewhere`);
  try {
    makePrivateDir(dir, { holdwatchs: true });
    return dir;
  } catch (error) {
    if (error instanceof BadInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code && onFallback && DISK_REFUSALS.has(code)) return fallbackRunsDir(dataDir, code, watched, onFallback);
    // A data dir that is a file, or is not ours to write: the user's setting to fix.
    if (code && SETTING_REFUSALS.has(code)) throw unusable(dataDir, code);
    throw error;
  }
}

/** What a disk says when it takes nothing more: no setting of the user's is wrong. */
const DISK_REFUSALS = new Set(['EROFS', 'ENOSPC', 'EDQUOT', 'EIO']);
const SETTING_REFUSALS = new Set(['ENOTDIR', 'EEXIST', 'ENOENT', 'EACCES', 'EPERM', 'ELOOP', ...DISK_REFUSALS]);

function unusable(dataDir: string, code: string): BadInputError {
  return new BadInputError(`the data directory ${dataDir} cannot be used (${code}): set HOLDWATCH_DATA_DIR to a directory you can write`);
}

function fallbackRunsDir(dataDir: string, code: string, watched: readonly WatchDir[], onFallback: (line: string) => void): string {
  // mkdtemp makes a new 0700 dir under a name no one could have planted; it stands in for the whole
  // data dir, whose other contents (the Go exit-stop program) go beside runs/ as they would there.
  const prefix = join(tmpdir(), 'holdwatch-');
  if (watched.some((w) => isUnder(prefix, w.display, pathStyleOf(w)))) throw unusable(dataDir, code);
  let dir: string;
  try {
    dir = runsPathIn(mkdtempSync(prefix));
    makePrivateDir(dir, { holdwatchs: true });
  } catch {
    throw unusable(dataDir, code);
  }
  onFallback(
    `the data directory ${dataDir} cannot be written (${code}): this run is recorded in ${dir} instead, where \`holdwatch ui\` and \`holdwatch runs\` do not look`,
  );
  return dir;
}

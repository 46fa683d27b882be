// holdwatch's data directory: XDG on Linux, %LOCALAPPDATA% on Windows, HOLDWATCH_DATA_DIR to override.
// Run journals live here, never inside a watched directory. The front end finds it once (dataDirOf)
// and hands it to the host. probes/holdwatch-announce.mjs finds the same dir on its own (probes may
// not import our code): keep the two in step.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { WatchDir } from '../core/platform.js';
import { makePrivateDir } from './private-files.js';
import { BadInputError } from '../core/errors.js';
import { refuseInsideWatched } from './watched-dirs.js';

export function dataDirOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (env.HOLDWATCH_DATA_DIR) return env.HOLDWATCH_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'holdwatch');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'holdwatch');
}

/** Where run journals live; runsDir() checks and creates it before anything is written there. */
export function runsPathIn(dataDir: string): string {
  return join(dataDir, 'runs');
}

/** The runs folder, created; refuses a data dir inside a watched dir (holdwatch never writes there). */
export function runsDir(dataDir: string, watched: readonly WatchDir[]): string {
  const dir = runsPathIn(dataDir);
  refuseInsideWatched(dir, watched, (w) => `the data directory ${dir} is inside the watched directory ${w.display}; set HOLDWATCH_DATA_DIR elsewhere`);
  try {
    makePrivateDir(dir, { holdwatchs: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A data dir that is a file, is not ours to write, or sits on a read-only disk: the user's setting to fix.
    if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new BadInputError(`the data directory ${dataDir} cannot be used (${code}): set HOLDWATCH_DATA_DIR to a directory you can write`);
    throw error;
  }
  return dir;
}

// Resolves a user's directory argument and steps out of it: holdwatch must never hold a handle under
// the directory it watches, and its own current directory is one.
import { parse } from 'node:path';
import { isUnder, pathStyleOf } from '../core/paths.js';
import type { HolderSource, WatchDir } from '../core/platform.js';

export async function resolveAndStepOut(source: HolderSource, input: string): Promise<WatchDir> {
  const dir = await source.resolveWatchDir(input);
  const style = pathStyleOf(dir);
  const cwd = process.cwd();
  if (isUnder(cwd, dir.display, style)) process.chdir(parse(cwd).root);
  return dir;
}

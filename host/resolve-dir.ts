// Resolves a user's directory argument and steps out of it: holdwatch must never hold a handle under
// the directory it watches, and its own current directory is one.
import { parse } from 'node:path';
import { isUnder, pathStyleOf } from '../core/paths.js';
import type { HolderSource, WatchDir } from '../core/platform.js';

/** The host process's current directory, as the front end hands it over (`process` itself). */
export interface WorkingDirectory {
  cwd(): string;
  chdir(directory: string): void;
}

export async function resolveAndStepOut(source: HolderSource, input: string, workingDirectory: WorkingDirectory): Promise<WatchDir> {
  const dir = await source.resolveWatchDir(input);
  const style = pathStyleOf(dir);
  const cwd = workingDirectory.cwd();
  if (isUnder(cwd, dir.display, style)) workingDirectory.chdir(parse(cwd).root);
  return dir;
}

// "Reveal in the file manager": the folder holding the path is opened (Explorer and Finder select
// the item). Only a folder is ever handed to xdg-open: opening a file would run its default program.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import { BadInputError } from '../core/errors.js';

export async function revealInFileManager(path: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (!isAbsolute(path)) throw new BadInputError(`not an absolute path: ${path}`);
  let target = path;
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // A deleted file (held open, unlinked) is revealed by its folder, when that still exists.
    target = dirname(path);
    isDir = true;
    try {
      statSync(target);
    } catch {
      throw new BadInputError(`${path} and its folder no longer exist`);
    }
  }
  const folder = isDir ? target : dirname(target);
  const [command, args] =
    platform === 'win32'
      ? ['explorer.exe', isDir ? [folder] : [`/select,${target}`]]
      : platform === 'darwin'
        ? ['open', isDir ? [folder] : ['-R', target]]
        : ['xdg-open', [folder]];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ENOENT' ? new BadInputError(`no file manager to open (${command} is not installed): the folder is ${folder}`) : error),
    );
  });
}

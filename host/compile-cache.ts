// V8's compile cache for a one-shot `scan`, in holdwatch's data dir: without it every start compiles
// again what the last one compiled. Only for scan: a long-lived command gains little from it, and Node
// writes the cache at exit, into a data dir that may by then lie under a dir the command watched. Never
// where the cache would lie under a path the scan names (holdwatch writes nothing under the watched dir),
// nor in a dir another user could write: a planted cache entry is code this process would run.
import { mkdirSync, realpathSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { isUnder, WINDOWS_STYLE, type PathStyle } from '../core/paths.js';
import { dataDirOf } from './data-dir-path.js';
import { checkTrustedDir } from './trusted-dir.js';

/** Turns the cache on for `argv` (the CLI's arguments) when it is a scan's and the cache's place is safe. */
export function enableScanCompileCache(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, platform = process.platform): void {
  if (argv[0] !== 'scan') return;
  try {
    const dir = compileCacheDirOf(env, platform);
    // Case-insensitive where the file system usually is: a cache refused for nothing costs only its speed-up.
    const style: PathStyle = platform === 'win32' ? WINDOWS_STYLE : { sep: '/', caseInsensitive: platform === 'darwin' };
    const cache = realOrLexical(dir);
    const named = argv.slice(1).filter((arg) => !arg.startsWith('-'));
    if (named.some((arg) => isUnder(cache, realOrLexical(resolve(arg)), style))) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    checkTrustedDir(dir, 'the compile cache');
    enableCompileCache(dir);
  } catch {
    // A data dir that cannot be written or trusted costs the scan its speed-up, nothing more.
  }
}

function compileCacheDirOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  return join(dataDirOf(env, platform), 'compile-cache');
}

/** `path` with its deepest existing ancestor's links resolved: where a dir not made yet will be. */
function realOrLexical(path: string): string {
  const below: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync.native(at), ...below);
    } catch {
      if (dirname(at) === at) return path;
      below.unshift(basename(at));
    }
  }
}

// V8's compile cache for a one-shot `scan` or `run`, in holdwatch's data dir: without it every start
// compiles again what the last one compiled, and a short suite's run pays that before its command
// starts. Not for the long-lived commands (watch, ui, attach): they gain little from it. Node writes the
// cache at exit, so never where it would lie under a dir the command names (a scanned dir, a run's
// --watch: holdwatch writes nothing under the watched dir), nor in a dir another user could write: a
// planted cache entry is code this process would run.
import { mkdirSync, realpathSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { isUnder, WINDOWS_STYLE, type PathStyle } from '../core/paths.js';
import { dataDirOf } from './data-dir-path.js';
import { checkTrustedDir } from './trusted-dir.js';

/** Turns the cache on for `argv` (the CLI's arguments) when it is a scan's or a run's and the cache's place is safe. */
export function enableCompileCacheFor(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, platform = process.platform): void {
  const named = namedDirsOf(argv);
  if (!named) return;
  try {
    const dir = compileCacheDirOf(env, platform);
    // Case-insensitive where the file system usually is: a cache refused for nothing costs only its speed-up.
    const style: PathStyle = platform === 'win32' ? WINDOWS_STYLE : { sep: '/', caseInsensitive: platform === 'darwin' };
    const cache = realOrLexical(dir);
    if (named.some((arg) => isUnder(cache, realOrLexical(resolve(arg)), style))) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    checkTrustedDir(dir, 'the compile cache');
    enableCompileCache(dir);
  } catch {
    // A data dir that cannot be written or trusted costs the scan its speed-up, nothing more.
  }
}

/**
 * The dirs a scan or a run names: a scan's every argument that is no option; a run's --watch values
 * (its command, after `--`, is the command's own). Null for the other commands.
 */
function namedDirsOf(argv: readonly string[]): string[] | null {
  if (argv[0] === 'scan') return argv.slice(1).filter((arg) => !arg.startsWith('-'));
  if (argv[0] !== 'run') return null;
  const own = argv.slice(1, argv.includes('--') ? argv.indexOf('--') : argv.length);
  return own.flatMap((arg, i) => (arg.startsWith('--watch=') ? [arg.slice('--watch='.length)] : own[i - 1] === '--watch' ? [arg] : []));
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

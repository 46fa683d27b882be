// Go's *PathError: `<op> <path>: <text>`, e.g. `TempDir RemoveAll cleanup: unlinkat /tmp/x: directory not
// empty` or `remove C:\x: The process cannot access the file because ...`. Go prints no number: on Unix
// the text is Go's own lowercase errno table, on Windows FormatMessage's (translated) text.
import type { TeardownFailure } from './failure.js';
import type { MessageHit } from './messages.js';
import { cleanBarePath } from './quoted.js';

// The first op word after a separator; wrappers may put text before it (`error:open C:\x`).
const OP = /(?:^|[\s:])(?:remove|unlinkat|rename|open|openat|rmdir|lstat|stat|readdirent|fdopendir) /;
const GO_CONTEXT = /\.go:\d+: |TempDir RemoveAll cleanup/;
/**
 * testing's own words when t.TempDir()'s removal fails: a teardown failure whatever the OS text after
 * them (a language or a Wine build the message table does not know).
 */
export const GO_TEMPDIR_CLEANUP = 'TempDir RemoveAll cleanup: ';

export function matchGo(line: string, hit: MessageHit): TeardownFailure | undefined {
  const end = line.lastIndexOf(': ', hit.index);
  if (end < 0) return undefined;
  // The op and path follow the last ": " before them (the path itself never contains ": ").
  const begin = line.lastIndexOf(': ', end - 1);
  const segment = line.slice(begin < 0 ? 0 : begin + 2, end);
  const op = OP.exec(segment);
  if (!op) {
    if (!GO_CONTEXT.test(line)) return undefined;
    return { ...hit.known, source: 'go', classifiedBy: 'message', line };
  }
  const path = cleanBarePath(sourceOf(op[0], segment.slice(op.index + op[0].length)));
  return { ...hit.known, source: 'go', classifiedBy: 'message', line, ...(path ? { path } : {}) };
}

/** A rename's LinkError prints `<old> <new>`: the old name is what could not move (the second starts a path). */
function sourceOf(op: string, paths: string): string {
  if (!op.includes('rename')) return paths;
  const second = / (?=[A-Za-z]:[\\/]|\\\\|\/)/.exec(paths);
  return second ? paths.slice(0, second.index) : paths;
}

/** `TempDir RemoveAll cleanup: <op> <path>: <text>` with a text no table row knows: the path, no OS error. */
export function matchGoTempDirCleanup(line: string): TeardownFailure | undefined {
  const at = line.indexOf(GO_TEMPDIR_CLEANUP);
  if (at < 0) return undefined;
  const rest = line.slice(at + GO_TEMPDIR_CLEANUP.length);
  const op = OP.exec(rest);
  // The OS text follows the path's last ": " (a Windows path's drive colon has no space after it).
  const end = rest.lastIndexOf(': ');
  const path = op && op.index === 0 && end > op[0].length ? cleanBarePath(rest.slice(op[0].length, end)) : undefined;
  return { kind: 'cleanup-failed', source: 'go', classifiedBy: 'message', line, ...(path ? { path } : {}) };
}

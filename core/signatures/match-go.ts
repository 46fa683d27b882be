// Go's *PathError: `<op> <path>: <text>`, e.g. `TempDir RemoveAll cleanup: unlinkat /tmp/x: directory not
// empty` or `remove C:\x: The process cannot access the file because ...`. Go prints no number: on Unix
// the text is Go's own lowercase errno table, on Windows FormatMessage's (translated) text.
import type { TeardownFailure } from './failure.js';
import type { MessageHit } from './messages.js';
import { cleanBarePath } from './quoted.js';

// The first op word after a separator; wrappers may put text before it (`error:open C:\x`).
const OP = /(?:^|[\s:])(?:remove|unlinkat|rename|open|openat|rmdir|lstat|stat|readdirent|fdopendir) /;
const GO_CONTEXT = /\.go:\d+: |TempDir RemoveAll cleanup/;

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
  const path = cleanBarePath(segment.slice(op.index + op[0].length));
  return { ...hit.known, source: 'go', classifiedBy: 'message', line, ...(path ? { path } : {}) };
}

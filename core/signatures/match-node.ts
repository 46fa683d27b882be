// Node (libuv): `EBUSY: resource busy or locked, rmdir 'C:\path'`, `ENOTEMPTY: directory not empty, rmdir '/x'`,
// `EPERM: operation not permitted, unlink 'x'` (Windows' access-denied/delete-pending), and the
// pre-v4 form `EBUSY, unlink 'x'`. Paths are printed raw between single quotes.
import type { TeardownFailure } from './failure.js';
import { findMessage } from './messages.js';
import { errnoByName } from './os-errors.js';

const NODE = /\b(EBUSY|ENOTEMPTY|EPERM)(?:: [^,']*)?, (\w+)(?: '([^']*)')?/;
/**
 * Node 23+'s native `fs.rmSync` (std::filesystem) reports an errno libuv does not map as UV_UNKNOWN
 * with an empty code, so the message starts with ", ": `Error: , Unknown error: Device or resource busy
 * '/mnt/x'` (seen on Node 24.22 here; nodejs/node#65884). The strerror text says which failure it is.
 */
const NODE_UNKNOWN = /(?:^|\s|Error: ), Unknown error: ([^']+?) '([^']*)'/;
/**
 * Node 23+'s native `fs.rmSync` on Windows names the code, the OS text and the bare path, with no
 * syscall: `Error: EPERM, Permission denied: \\?\C:\x` (only rm prints this shape, so EPERM is a removal).
 */
const NODE_NATIVE_RM = /\b(EBUSY|ENOTEMPTY|EPERM), ([A-Z][a-z][^:']*): (.+)$/;
/** EPERM elsewhere (chmod, kill, mkdir) is a permission problem, not a holder. */
const EPERM_SYSCALLS = new Set(['unlink', 'rmdir', 'rename', 'rm', 'open']);

export function matchNode(line: string): TeardownFailure | undefined {
  // First: its `EPERM, Permission denied` would read as the pre-v4 form with a syscall "Permission".
  const native = matchNativeRm(line);
  if (native) return native;
  const m = NODE.exec(line);
  if (!m) return matchUnknownCode(line);
  const [, name, syscall, path] = m;
  if (name === 'EPERM' && !EPERM_SYSCALLS.has(syscall!)) return undefined;
  const known = errnoByName(name!);
  if (!known) return undefined;
  return { ...known, source: 'node', classifiedBy: 'code', line, ...(path ? { path } : {}) };
}

function matchUnknownCode(line: string): TeardownFailure | undefined {
  const m = NODE_UNKNOWN.exec(line);
  const known = m ? findMessage(m[1]!)?.known : undefined;
  if (!m || !known) return undefined;
  return { ...known, source: 'node', classifiedBy: 'message', line, path: m[2]! };
}

function matchNativeRm(line: string): TeardownFailure | undefined {
  const m = NODE_NATIVE_RM.exec(line.trimEnd());
  const known = m ? errnoByName(m[1]!) : undefined;
  if (!m || !known) return undefined;
  return { ...known, source: 'node', classifiedBy: 'code', line, path: m[3]! };
}

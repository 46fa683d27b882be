// Node (libuv): `EBUSY: resource busy or locked, rmdir 'C:\path'`, `ENOTEMPTY: directory not empty, rmdir '/x'`,
// `EPERM: operation not permitted, unlink 'x'` (Windows' access-denied/delete-pending), and the
// pre-v4 form `EBUSY, unlink 'x'`. Paths are printed raw between single quotes.
import type { TeardownFailure } from './failure.js';
import { errnoByName } from './os-errors.js';

const NODE = /\b(EBUSY|ENOTEMPTY|EPERM)(?:: [^,']*)?, (\w+)(?: '([^']*)')?/;
/** EPERM elsewhere (chmod, kill, mkdir) is a permission problem, not a holder. */
const EPERM_SYSCALLS = new Set(['unlink', 'rmdir', 'rename', 'rm', 'open']);

export function matchNode(line: string): TeardownFailure | undefined {
  const m = NODE.exec(line);
  if (!m) return undefined;
  const [, name, syscall, path] = m;
  if (name === 'EPERM' && !EPERM_SYSCALLS.has(syscall!)) return undefined;
  const known = errnoByName(name!);
  if (!known) return undefined;
  return { ...known, source: 'node', classifiedBy: 'code', line, ...(path ? { path } : {}) };
}

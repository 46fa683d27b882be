// Files no test's teardown will fail on: the test runner's own scratch, and anonymous temp files.
// They show up whenever the system temp dir is watched (where most teardowns fail) and would bury the
// one real holder, so a record marks them and reports fold them into one line.
import type { Holder } from '../../contract/holders.js';

const RUNNER_DIRS: readonly { pattern: RegExp; what: string }[] = [
  { pattern: /^go-build\d+$/, what: "go build's work dir" },
  { pattern: /^bats-run-[A-Za-z0-9]+$/, what: "bats's run dir" },
];

/** What the holder's file is, when it is scratch no teardown deletes; null for anything else. */
export function scratchOf(holder: Pick<Holder, 'path' | 'deleted'>): string | null {
  const parts = holder.path.split(/[\\/]/);
  // O_TMPFILE (Python's TemporaryFile, pytest's capture): no name in any directory, nothing to delete.
  if (holder.deleted && /^#\d+$/.test(parts.at(-1) ?? '')) return 'an anonymous temp file (no name to delete)';
  for (const part of parts) for (const dir of RUNNER_DIRS) if (dir.pattern.test(part)) return dir.what;
  return null;
}

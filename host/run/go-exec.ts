// Go test binaries run no probe and exit a moment after their last test, so a file a test left open
// would be closed by the kernel before any scan. On Linux a run puts holdwatch's `-exec` program in
// GOFLAGS: every `go test` under the command (behind make or a script too) runs its test binary
// through it, and the binary stops at its exit until holdwatch has scanned it (probes/go). GOFLAGS is
// added to, never replaced; one that already names an -exec, or a path GOFLAGS cannot carry (it splits
// on spaces), leaves Go alone. Where strace is installed, the program runs the binary under it instead
// (HOLDWATCH_STRACE): the syscall ledger it writes beside the probes' logs says which test opened each
// file and whether it was still open at that test's end, which no scan of a 1 ms test can.
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { PROBES_DIR } from '../install-paths.js';

const GO_EXEC_SOURCES = ['go/exec/main.go', 'go/exec/stop_linux.go', 'go/exec/stop_windows.go', 'go/exec/go.mod'];

export interface GoExecPlace {
  platform?: NodeJS.Platform;
  /** Where holdwatch's probes are (the installed ones by default). */
  probesDir?: string;
  /**
   * The strace to write the syscall ledger with; null for none. By default the user's HOLDWATCH_STRACE
   * (empty: no ledger), else the first strace on the command's PATH.
   */
  strace?: string | null;
}

/** The first executable `name` on a PATH, or null. */
export function onPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this one
    }
  }
  return null;
}

/**
 * The variables that route Go's test binaries through the exit stop, or {} when they cannot.
 * `cacheDir`: holdwatch's own, outside every watched dir; the built program is kept there, by the
 * hash of its sources.
 */
export function goExecEnvironment(
  base: NodeJS.ProcessEnv,
  cacheDir: string,
  {
    platform = process.platform,
    probesDir = PROBES_DIR,
    strace = base.HOLDWATCH_STRACE === undefined ? onPath('strace', base.PATH) : base.HOLDWATCH_STRACE || null,
  }: GoExecPlace = {},
): NodeJS.ProcessEnv {
  if (platform !== 'linux') return {};
  const script = join(probesDir, 'go/holdwatch-go-exec');
  const flags = base.GOFLAGS ?? '';
  if (/(^|\s)--?exec(=|\s|$)/.test(flags) || /\s/.test(script)) return {};
  const hash = createHash('sha256');
  for (const source of GO_EXEC_SOURCES) hash.update(readFileSync(join(probesDir, source)));
  const bin = join(cacheDir, 'go-exec', hash.digest('hex').slice(0, 16), 'holdwatch-go-exec');
  return {
    GOFLAGS: [flags.trim(), `-exec=${script}`].filter(Boolean).join(' '),
    HOLDWATCH_GO_EXEC_BIN: bin,
    ...(strace === null ? {} : { HOLDWATCH_STRACE: strace }),
  };
}

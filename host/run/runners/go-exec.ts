// Go test binaries run no probe and exit a moment after their last test, so a file a test left open
// would be closed by the OS before any scan. A run puts holdwatch's `-exec` program in GOFLAGS: every
// `go test` under the command (behind make or a script too) runs its test binary through it, and the
// binary stops at its exit until holdwatch has scanned it (probes/go). On Linux GOFLAGS names a shell
// script that builds the program on first use; Windows runs no script there, so the program is built
// before the command starts, once per version of its sources, when `go` is found. GOFLAGS is added to,
// never replaced; one that already names an -exec, or a path GOFLAGS cannot carry (it splits on
// spaces), leaves Go alone. Where strace is installed (Linux), the program runs the binary under it
// instead (HOLDWATCH_STRACE): the syscall ledger it writes beside the probes' logs says which test
// opened each file and whether it was still open at that test's end, which no scan of a 1 ms test can.
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { LEDGER_FILE_NAME } from '../../../core/stacks/syscall-ledger.js';
import { shortPathOf } from '../../../native/index.js';
import { PROBES_DIR } from '../../install-paths.js';
import type { CommandLine } from './command-line.js';
import type { RunnerContext } from './runner.js';
import { goExecSourcesKey } from './go-exec-key.js';

const GO_EXEC_SOURCES = [
  'go/exec/main.go',
  'go/exec/stop_linux.go',
  'go/exec/stop_windows.go',
  'go/exec/trace_linux.go',
  'go/exec/trace_windows.go',
  'go/exec/go.mod',
];
/** A first build with a cold Go cache compiles the standard library parts it uses. */
const BUILD_DEADLINE_MS = 120_000;

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
 * hash of its sources (on Windows it must be there already: prepareGoExec builds it).
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
  if (platform !== 'linux' && platform !== 'win32') return {};
  const bin = goExecBinary(cacheDir, platform, probesDir);
  if (platform === 'win32') return existsSync(bin) ? withExec(base, bin) : {};
  const env = withExec(base, join(probesDir, 'go/holdwatch-go-exec'));
  if (env.GOFLAGS === undefined) return {};
  return { ...env, HOLDWATCH_GO_EXEC_BIN: bin, ...(strace === null ? {} : { HOLDWATCH_STRACE: strace }) };
}

/**
 * A run's environment has Go's test binaries write a syscall ledger (holdwatch's -exec program under
 * strace, as probes/go/exec/trace_linux.go decides): what was open at each of their tests' ends is read
 * from it, not from a scan made when go test prints the end.
 */
export function goLedgerOn(env: NodeJS.ProcessEnv, probesDir = PROBES_DIR): boolean {
  const exec = /(?:^|\s)-exec=(\S+)$/.exec(env.GOFLAGS ?? '')?.[1];
  return Boolean(env.HOLDWATCH_STRACE && env.HOLDWATCH_PROBE_LOG) && env.HOLDWATCH_PROBE_DISABLED !== '1' && exec === join(probesDir, 'go/holdwatch-go-exec');
}

/**
 * Asks whether a ledger is being written: goLedgerOn, and strace has begun one (it creates the file
 * before it runs the binary; where ptrace is refused, none is left and test ends are scanned as before).
 * Once one was seen, the answer stays yes for the run.
 */
export function goLedgerWritten(env: NodeJS.ProcessEnv, probesDir = PROBES_DIR): () => boolean {
  if (!goLedgerOn(env, probesDir)) return () => false;
  const logDir = env.HOLDWATCH_PROBE_LOG!;
  let seen = false;
  return () => (seen ||= hasLedger(logDir));
}

function hasLedger(logDir: string): boolean {
  try {
    return readdirSync(logDir).some((name) => LEDGER_FILE_NAME.test(name));
  } catch {
    return false; // no log dir: no ledger
  }
}

/** Where the -exec program (and its script) says why a binary ran without the stop at its exit. */
const MISSED_FILE_NAME = /^go-exit-stop-\d+\.missed$/;

/**
 * Each Go test binary of the run that ran without the stop at its exit, and why (a line each, as
 * probes/go left them in the probes' log dir): what such a binary held at its end rests on scans alone.
 */
export function goExitStopMisses(logDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(logDir).filter((name) => MISSED_FILE_NAME.test(name));
  } catch {
    return []; // no log dir: no probe wrote anything
  }
  return names.sort().flatMap((name) =>
    readFileSync(join(logDir, name), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== ''),
  );
}

/** GOFLAGS with `-exec=<program>` added, or {} when the user named one or GOFLAGS cannot carry the path. */
function withExec(base: NodeJS.ProcessEnv, program: string): NodeJS.ProcessEnv {
  const flags = base.GOFLAGS ?? '';
  if (/(^|\s)--?exec(=|\s|$)/.test(flags) || /\s/.test(program)) return {};
  return { GOFLAGS: [flags.trim(), `-exec=${program}`].filter(Boolean).join(' ') };
}

export interface GoExec {
  /** What the command's environment gains ({} when Go is left alone). */
  env: NodeJS.ProcessEnv;
  /** The -exec program GOFLAGS names, or null. */
  program: string | null;
}

/**
 * goExecEnvironment, after building the program where no script can (Windows). A build that fails
 * (no `go`, no compiler cache, past its deadline) leaves Go alone: the run goes on without the stop.
 */
export async function prepareGoExec(base: NodeJS.ProcessEnv, cacheDir: string, place: GoExecPlace = {}, command: readonly string[] = ['go']): Promise<GoExec> {
  const { platform = process.platform, probesDir = PROBES_DIR } = place;
  // Windows builds the program before the command starts: only for a command that is Go's, so no other
  // run waits on a build (or on a missing go.exe). A `go test` behind a script or make is not wrapped there.
  if (platform === 'win32' && !isGoCommand(command)) return { env: {}, program: null };
  const env =
    platform === 'win32' ? await windowsGoExec(base, goExecBinary(cacheDir, platform, probesDir), probesDir) : goExecEnvironment(base, cacheDir, place);
  return { env, program: /-exec=(\S+)$/.exec(env.GOFLAGS ?? '')?.[1] ?? null };
}

/**
 * Windows: the program built, named by its 8.3 path when the data dir has spaces (`C:\Users\Jo Smith`
 * is common, and GOFLAGS splits on spaces).
 */
async function windowsGoExec(base: NodeJS.ProcessEnv, bin: string, probesDir: string): Promise<NodeJS.ProcessEnv> {
  if (!(await buildGoExec(base, bin, probesDir))) return {};
  return withExec(base, /\s/.test(bin) ? ((await shortPathOf(bin)) ?? bin) : bin);
}

/** `go ...` itself, or a Go test binary (`pkg.test`, `pkg.test.exe`). */
function isGoCommand(command: readonly string[]): boolean {
  const name = /[^\\/]*$/.exec(command[0] ?? '')![0].toLowerCase();
  return name === 'go' || name === 'go.exe' || /\.test(?:\.exe)?$/.test(name);
}

/** The runner table's Go entry: what every run's environment gains for Go's test binaries. */
export async function goExitStopEnvironment({ base, cacheDir, platform, probesDir, command }: RunnerContext): Promise<NodeJS.ProcessEnv> {
  return (await prepareGoExec(base, cacheDir, { platform, probesDir }, command)).env;
}

/**
 * A Go test binary run directly (`go test -c`'s `pkg.test`, `pkg.test.exe`: CI builds one and runs it
 * later, or on another machine). Only one that is there, from the command's cwd: a missing one is the
 * user's mistake, said by holdwatch's own "command not found".
 */
export function isGoTestBinary({ program, name }: CommandLine, { cwd }: RunnerContext): boolean {
  return /\.test$/i.test(name) && statSync(resolve(cwd, program), { throwIfNoEntry: false })?.isFile() === true;
}

/** The binary runs through the exit-stop program GOFLAGS names, as `go test -exec` would run it. */
export function throughExitStop({ prefix, program, args }: CommandLine, _context: RunnerContext, env: NodeJS.ProcessEnv): string[] {
  const exitStop = /-exec=(\S+)$/.exec(env.GOFLAGS ?? '')?.[1];
  return exitStop === undefined ? [...prefix, program, ...args] : [...prefix, exitStop, program, ...args];
}

/** Builds the program into `bin` unless it is there; true when it is there afterwards. */
export async function buildGoExec(base: NodeJS.ProcessEnv, bin: string, probesDir = PROBES_DIR): Promise<boolean> {
  if (existsSync(bin)) return true;
  const dir = dirname(bin);
  mkdirSync(dir, { recursive: true });
  // Built aside, renamed into place: two runs building at once race harmlessly.
  const partial = `${bin}.${process.pid}.partial`;
  // For this machine whatever the user's GOOS/GOARCH say, with none of their flags or workspace; the
  // compiler's temporary files go beside the program, outside every watched dir.
  const goEnv: NodeJS.ProcessEnv = { ...base, GOFLAGS: '', GOWORK: 'off', GO111MODULE: 'on', CGO_ENABLED: '0', GOTMPDIR: dir };
  delete goEnv.GOOS;
  delete goEnv.GOARCH;
  const built = await new Promise<boolean>((resolve) => {
    execFile('go', ['build', '-o', partial, '.'], { cwd: join(probesDir, 'go/exec'), env: goEnv, timeout: BUILD_DEADLINE_MS, windowsHide: true }, (error) =>
      resolve(error === null),
    );
  });
  try {
    if (built) renameSync(partial, bin);
  } finally {
    rmSync(partial, { force: true });
  }
  return existsSync(bin);
}

/** Where the program built from these sources is kept. */
function goExecBinary(cacheDir: string, platform: NodeJS.Platform, probesDir: string): string {
  const builds = join(cacheDir, 'go-exec');
  const name = platform === 'win32' ? 'holdwatch-go-exec.exe' : 'holdwatch-go-exec';
  return join(builds, goExecSourcesKey(builds, probesDir, GO_EXEC_SOURCES), name);
}

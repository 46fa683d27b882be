// Where the win32 suite's Windows processes run: under Wine from Linux, or natively when the host is
// Windows. Every difference between the two lives behind this one interface (wine-host.ts and
// native-host.ts); the tests and the harness never ask which one they got, except through
// `underWine` to skip what Wine cannot show.
import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..');

/** Every process the suite starts carries this in its environment (NAME=run id). */
export const RUN_MARKER = 'HOLDWATCH_WINE_TEST_RUN';

export interface WindowsEnv {
  /** The Windows node.exe the suite runs (Wine: the cached one; natively: this process's own). */
  nodeExe: string;
  env: NodeJS.ProcessEnv;
  /** koffi's win32-x64 binary (a real DLL the module tests load and hold). */
  koffiBinary: string;
}

export interface StartedNode {
  child: ChildProcess;
  logs: { out: string; err: string };
  /** Resolves once the child's output is all in its log files (natively they are fed from pipes). */
  flushed: Promise<void>;
}

export interface WindowsHost {
  readonly kind: 'wine' | 'native';
  /** For test names: "under Wine" or "on Windows". */
  readonly where: string;
  /** Why the suite cannot run here (Wine not installed), or null. */
  missing(): string | null;
  /** Everything ready for node.exe (Wine: the prefix and a persistent wineserver). */
  prepare(runId: string): WindowsEnv;
  /** A path as the test process made it, as the Windows processes spell it (`/tmp/x` -> `Z:\tmp\x` under Wine). */
  toWindows(path: string): string;
  /** A path a Windows process printed, as the test process opens it (`C:\users\...` -> the prefix's drive_c). */
  fromWindows(path: string, env: WindowsEnv): string;
  /** A fresh scratch dir `<tmp>/<prefix>XXXXXX`, by its long, real name. */
  makeScratch(prefix: string): string;
  /** node.exe `args` in the repo, its stdout and stderr in `logs`. */
  spawnNode(env: WindowsEnv, args: string[], logs: { out: string; err: string }): StartedNode;
  /** The 8.3 form of `path`, as cmd's `%~sI` gives it. `scratch` may hold a temporary file. */
  shortPathName(env: WindowsEnv, path: string, scratch: string): string;
  /** Every spelling of `dir` a user may type, the canonical one first (the 8.3 alias is added by the test). */
  spellings(dir: string): string[];
  /** Ctrl-C to `child`, as a terminal sends it (a plain kill on Windows is TerminateProcess, no handler runs). */
  interrupt(child: ChildProcess, env: WindowsEnv): Promise<void>;
  /** Ends every process of the run: those `spawned` and whatever they started. */
  killRun(env: WindowsEnv, spawned: readonly number[]): void;
  /** Ends the host's shared state after a suite (Wine: the prefix's wineserver). */
  stop(env: WindowsEnv): void;
  /** A line for failure messages: how the host's shared state is doing (Wine: its wineserver). */
  summary(): string;
}

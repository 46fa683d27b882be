// What the runner table says of each runner (table.ts), and what its entries are given.
import type { RunnerKind } from '../../../core/runners/sniffing-parser.js';
import type { CommandLine } from './command-line.js';

/** What a runner's entry is given to rewrite a command or add to its environment. */
export interface RunnerContext {
  /** The whole command, as the user gave it. */
  command: readonly string[];
  /** The environment the command would have had without holdwatch. */
  base: NodeJS.ProcessEnv;
  cwd: string;
  /** holdwatch's own folder for what it builds (outside every watched dir). */
  cacheDir: string;
  /** The bundled probes, with a trailing separator. */
  probesDir: string;
  platform: NodeJS.Platform;
  /** The Node major the command's `node` is taken to be (the one running holdwatch, nearly always). */
  nodeMajor: number;
  /** The user's terminal is on the other side of holdwatch's pipe. */
  userSeesTerminal: boolean;
}

/**
 * How a Node process is told to be one running a runner's tests, by the Node preload: its main script's
 * path (`/` separated) matches `main`; or its runner set `variable` for it (node --test's file processes).
 * Such a process's descendants inherit the variable yet run none of its tests: the first process marks
 * itself, and a process started with `runnerFlag` (a runner again) clears the mark. `threadsOf`: the
 * runner's own process, whose main script matches it, runs tests in worker threads (vitest's threads
 * pool), which have no main script of their own to tell them by: the preload there follows its tests.
 */
export type NodeTracker = { tracker: string; main: string; threadsOf?: string } | { tracker: string; variable: string; runnerFlag: string };

/** Who tells holdwatch a test started and ended. */
export type TestReporter =
  /** A probe inside the runner's process, through the events file: the tests its output reports are the same ones. */
  | { by: 'probe'; probe: string }
  /** The runner's output, read by the parser `output` names. */
  | { by: 'output' };

export interface Runner {
  name: string;
  /** The command is this runner's. Absent: met only through its output (TAP from any producer). */
  recognise?: (line: CommandLine, context: RunnerContext) => boolean;
  /** The command with what makes its tests visible (a formatter, a reporter, the exit stop); `env` is what every entry added. */
  rewrite?: (line: CommandLine, context: RunnerContext, env: NodeJS.ProcessEnv) => string[];
  /**
   * What every run's environment gains for this runner, recognised or not: runners hide behind npm,
   * make and scripts, and what they load from the environment reaches them there too.
   */
  environment?: (context: RunnerContext) => NodeJS.ProcessEnv | Promise<NodeJS.ProcessEnv>;
  tests: TestReporter;
  /** The parsers its stdout may need, by its flags; core/runners/sniffing-parser.ts picks one by the first line. */
  output: readonly RunnerKind[];
  /** The Node preload's tracker that follows its tests inside the process running them. */
  nodeTracker?: NodeTracker;
}

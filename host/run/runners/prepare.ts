// A run's command and environment, as the runner table makes them: every entry's environment, the
// recognised runner's rewrite, and the Node preload told which trackers to look for.
import { commandLineOf } from './command-line.js';
import type { NodeTracker, Runner, RunnerContext } from './runner.js';
import { RUNNERS } from './table.js';

/** Read by probes/node/runners/index.cjs: the trackers of the table's Node runners, as JSON. */
export const NODE_TRACKERS_VARIABLE = 'HOLDWATCH_NODE_TRACKERS';

export interface PreparedCommand {
  /** The runner the command was recognised as (the plain line reader when none). */
  runner: Runner;
  command: string[];
  /** What the command's environment gains (the caller's own variables are added after). */
  env: NodeJS.ProcessEnv;
}

export async function prepareForRunners(context: RunnerContext, runners: readonly Runner[] = RUNNERS): Promise<PreparedCommand> {
  const env: NodeJS.ProcessEnv = { [NODE_TRACKERS_VARIABLE]: nodeTrackersOf(runners) };
  for (const runner of runners) if (runner.environment) Object.assign(env, await runner.environment(context));
  const line = commandLineOf(context.command);
  const runner = (line && runners.find((r) => r.recognise?.(line, context))) || runners.at(-1)!;
  const command = line && runner.rewrite ? runner.rewrite(line, context, env) : [...context.command];
  return { runner, command, env };
}

export function nodeTrackersOf(runners: readonly Runner[] = RUNNERS): string {
  return JSON.stringify(runners.flatMap((r): NodeTracker[] => (r.nodeTracker ? [r.nodeTracker] : [])));
}

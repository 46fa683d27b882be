// Runner-specific wiring that cannot ride on the environment: bats takes its formatter only on the
// command line, so `bats ...` gets holdwatch's formatter unless the user chose one.
import { basename } from 'node:path';
import { PROBES_DIR } from './run-env.js';

export const BATS_FORMATTER = PROBES_DIR + 'bats/holdwatch-bats-formatter.mjs';

export interface PreparedCommand {
  command: string[];
  /** True when a probe reports this runner's tests, so stdout's TAP must not report them twice. */
  probeReportsTests: boolean;
}

export function prepareCommand(command: readonly string[]): PreparedCommand {
  const [program, ...args] = command;
  const choseFormatter = args.some((a) => a === '-F' || a === '--formatter' || a.startsWith('--formatter='));
  if (program && basename(program) === 'bats' && !choseFormatter) {
    return { command: [program, '--formatter', BATS_FORMATTER, ...args], probeReportsTests: true };
  }
  return { command: [...command], probeReportsTests: false };
}

// bats takes its formatter only on the command line: holdwatch's, unless the user chose one.
import type { CommandLine } from './command-line.js';
import type { RunnerContext } from './runner.js';

export const BATS_FORMATTER_FILE = 'bats/holdwatch-bats-formatter.mjs';

export function batsWithFormatter({ prefix, program, args }: CommandLine, { probesDir }: RunnerContext): string[] {
  const chose = args.some((a) => a === '-F' || a === '--formatter' || a.startsWith('--formatter='));
  return chose ? [...prefix, program, ...args] : [...prefix, program, '--formatter', probesDir + BATS_FORMATTER_FILE, ...args];
}

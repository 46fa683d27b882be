// How a process is named in the table and the details. A node:test worker's command line is Node's
// own flags (two kilobytes of them, the runner's execArgv) and, last, the one word that says which
// worker it is: its test file. The name shows that file; the flags fold behind a count.
import type { Holder } from '../contract/holders.js';

/** More leading `--flag` words than this read as a runtime's internal flags, folded. */
const FOLD_FLAGS_OVER = 3;

export interface CommandLineParts {
  program: string;
  /** The program's leading `--flags`, folded when there are many; empty otherwise. */
  folded: string[];
  /** The words after them, the script or test file first. */
  rest: string[];
}

/** The command line with a long run of leading `--flags` set apart (words split at spaces, as shown). */
export function commandLineParts(commandLine: string): CommandLineParts {
  const [program = '', ...args] = commandLine.split(' ');
  const flags = args.findIndex((word) => !word.startsWith('--'));
  const count = flags < 0 ? args.length : flags;
  if (count <= FOLD_FLAGS_OVER) return { program, folded: [], rest: args };
  return { program, folded: args.slice(0, count), rest: args.slice(count) };
}

/** `node test/store.test.mjs` for a worker whose flags fold; the process name otherwise. */
export function processLabel(holder: Pick<Holder, 'processName' | 'commandLine'>): string {
  const { folded, rest } = commandLineParts(holder.commandLine);
  return folded.length > 0 && rest[0] ? `${holder.processName} ${rest[0]}` : holder.processName;
}

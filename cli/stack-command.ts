// `holdwatch stack <pid> [--json]`: the live stack of one process (py-spy/gdb/eu-stack on Linux),
// or a minidump and the thread list on Windows. Exit 1 with one line when no tool or privilege allows it.
import { join } from 'node:path';
import { EXIT_STACK_UNAVAILABLE } from '../contract/exit-codes.js';
import { BadInputError } from '../core/errors.js';
import { describeUnavailable, formatLiveStack } from '../core/live-stack.js';
import { dataDirOf } from '../host/data-dir.js';
import { liveStackOf } from '../host/holdwatch.js';

export interface StackOptions {
  json?: boolean;
  /** The process's start time (ms since the epoch), as scan --json gives it: another process with its pid is refused. */
  startedAt?: string;
}

export async function stackCommand(pidInput: string, options: StackOptions): Promise<number> {
  if (!/^\d+$/.test(pidInput) || Number(pidInput) <= 0 || !Number.isSafeInteger(Number(pidInput))) {
    throw new BadInputError(`expected a process id, got "${pidInput}"`);
  }
  const startedAtMs = options.startedAt === undefined ? undefined : Number(options.startedAt);
  if (startedAtMs !== undefined && (!/^\d+$/.test(options.startedAt!) || !Number.isSafeInteger(startedAtMs)))
    throw new BadInputError(`expected a start time in ms since the epoch, got "${options.startedAt}"`);
  const result = await liveStackOf(Number(pidInput), startedAtMs, join(dataDirOf(process.env, process.platform), 'dumps'));
  if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  if (result.kind === 'unavailable') {
    process.stderr.write(`holdwatch: ${describeUnavailable(result)}\n`);
    return EXIT_STACK_UNAVAILABLE;
  }
  if (!options.json) process.stdout.write(formatLiveStack(result));
  return 0;
}

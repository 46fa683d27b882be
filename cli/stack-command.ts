// `holdwatch stack <pid> [--json]`: the live stack of one process (py-spy/gdb/eu-stack on Linux),
// or a minidump and the thread list on Windows. Exit 1 with one line when no tool or privilege allows it.
import { join } from 'node:path';
import { EXIT_STACK_UNAVAILABLE } from '../contract/exit-codes.js';
import { BadInputError } from '../core/errors.js';
import { describeUnavailable, formatLiveStack } from '../core/live-stack.js';
import { openLiveStackSource } from '../native/index.js';
import { dataDirOf } from '../host/data-dir.js';

export interface StackOptions {
  json?: boolean;
}

export async function stackCommand(pidInput: string, options: StackOptions): Promise<number> {
  if (!/^\d+$/.test(pidInput) || Number(pidInput) <= 0 || !Number.isSafeInteger(Number(pidInput))) {
    throw new BadInputError(`expected a process id, got "${pidInput}"`);
  }
  const source = await openLiveStackSource({ dumpsDir: join(dataDirOf(process.env, process.platform), 'dumps') });
  const result = await source.liveStack(Number(pidInput));
  if (options.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  if (result.kind === 'unavailable') {
    process.stderr.write(`holdwatch: ${describeUnavailable(result)}\n`);
    return EXIT_STACK_UNAVAILABLE;
  }
  if (!options.json) process.stdout.write(formatLiveStack(result));
  return 0;
}

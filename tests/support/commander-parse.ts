// What commander hands a command's action for given words: the plain parsers (cli/scan-args.ts,
// cli/run-args.ts) are held to it.
import * as commander from 'commander';
import { buildProgram } from '../../cli/main.js';

/** The arguments commander calls `which`'s action with, or null when it calls none (help, bad input). */
export async function parsedByCommander(argv: string[], which: 'scan' | 'run'): Promise<unknown[] | null> {
  let parsed: unknown[] | null = null;
  const record = async (...args: unknown[]) => {
    parsed = args.map((arg) => (typeof arg === 'object' && arg !== null && !Array.isArray(arg) ? { ...arg } : arg));
    return 0;
  };
  const other = async () => 0;
  const program = buildProgram(commander, () => undefined, which === 'scan' ? record : other, which === 'run' ? record : other);
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return null; // commander answered itself: help, or bad input
  }
  return parsed;
}

// A test command as the runner table reads it: the program a command runs and its arguments, seen
// through an `env ...` prefix, which is how suites are often started with their variables
// (`env EXAMPLE_DIR=/tmp/x bats tests`): the runner is what env execs.
import { basename } from 'node:path';

export interface CommandLine {
  /** What comes before the runner (`env A=1`), kept as it was. */
  prefix: readonly string[];
  program: string;
  /** The program's name without folder or `.exe`/`.cmd`/`.js` ending: `bats`, `node`, `pkg.test`. */
  name: string;
  args: readonly string[];
}

/** The runner's part of a command; null for an empty command, or an env prefix this does not read. */
export function commandLineOf(command: readonly string[]): CommandLine | null {
  const start = envPrefix(command) ?? 0;
  const program = command[start];
  if (program === undefined || (start === 0 && nameOf(program) === 'env')) return null;
  return { prefix: command.slice(0, start), program, name: nameOf(program), args: command.slice(start + 1) };
}

/** A program's or script's name without folder or `.exe`/`.cmd`/`.js` ending: `bats`, `jest`, `pkg.test`. */
export function nameOf(program: string): string {
  return basename(program.replaceAll('\\', '/')).replace(/\.(exe|cmd|c?js)$/i, '');
}

/**
 * `env [-i] [-u NAME] [-C DIR] [NAME=VALUE]... <command>`: where the command env execs starts. Null when
 * there is no such prefix, or env is asked to split a string (-S), which this does not parse.
 */
function envPrefix(command: readonly string[]): number | null {
  if (nameOf(command[0] ?? '') !== 'env') return null;
  let i = 1;
  while (i < command.length) {
    const a = command[i]!;
    if (a === '--') return i + 1;
    if (a === '-i' || a === '--ignore-environment' || a === '-0' || a === '--null' || a === '-v' || a.startsWith('--unset=') || a.startsWith('--chdir='))
      i += 1;
    else if (a === '-u' || a === '--unset' || a === '-C' || a === '--chdir') i += 2;
    else if (a.startsWith('-'))
      return null; // -S and friends: not ours to read
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) i += 1;
    else return i;
  }
  return null;
}

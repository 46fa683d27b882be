// Runner-specific wiring that cannot ride on the environment: bats takes its formatter, and Node's
// test runner its reporters, only on the command line; mocha and jest need nothing (the Node preload
// follows their tests), but their stdout must not report the tests again. `bats ...` gets holdwatch's formatter and
// `node --test ...` holdwatch's reporter beside the one Node would have used, unless the user chose.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROBES_DIR } from '../install-paths.js';

export const BATS_FORMATTER = PROBES_DIR + 'bats/holdwatch-bats-formatter.mjs';
export const NODE_REPORTER = PROBES_DIR + 'node-reporter/holdwatch-reporter.mjs';

export interface PreparedCommand {
  command: string[];
  /** True when a probe reports this runner's tests, so stdout's TAP must not report them twice. */
  probeReportsTests: boolean;
}

/**
 * Node imports a `--test-reporter` that is not built in through its ESM loader, which takes `C:\...`
 * for a URL with scheme `c:` (ERR_UNSUPPORTED_ESM_URL_SCHEME): on Windows it must be a file:// URL.
 */
export function nodeReporterSpecifier(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? pathToFileURL(NODE_REPORTER).href : NODE_REPORTER;
}

/**
 * `env [-i] [-u NAME] [-C DIR] [NAME=VALUE]... <command>`: how a suite is often started with its
 * variables (`env EXAMPLE_DIR=/tmp/x bats tests`); the runner is what env execs. Null when there is no
 * such prefix, or env is asked to split a string (-S), which this does not parse.
 */
function envPrefix(command: readonly string[]): number | null {
  const name = command[0] ? basename(command[0]) : '';
  if (name !== 'env') return null;
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

/** Node's own major version: the node the command runs is, nearly always, the one running holdwatch. */
const OWN_NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/**
 * `userSeesTerminal`: up to Node 22, Node picks `spec` for a terminal and `tap` otherwise (the command
 * now sees a pipe, so holdwatch names the one Node would have picked); from Node 23 it is `spec` everywhere.
 */
export function prepareCommand(
  command: readonly string[],
  userSeesTerminal: boolean,
  platform: NodeJS.Platform = process.platform,
  nodeMajor = OWN_NODE_MAJOR,
): PreparedCommand {
  const start = envPrefix(command);
  if (start !== null) {
    const inner = prepareCommand(command.slice(start), userSeesTerminal, platform, nodeMajor);
    return { command: [...command.slice(0, start), ...inner.command], probeReportsTests: inner.probeReportsTests };
  }
  const [program, ...args] = command;
  const name = program ? basename(program).replace(/\.exe$/i, '') : '';
  const choseFormatter = args.some((a) => a === '-F' || a === '--formatter' || a.startsWith('--formatter='));
  if (name === 'bats' && !choseFormatter) {
    return { command: [program!, '--formatter', BATS_FORMATTER, ...args], probeReportsTests: true };
  }
  const choseReporter = args.some((a) => a.startsWith('--test-reporter'));
  if (name === 'node' && args.includes('--test') && !choseReporter) {
    const usual = userSeesTerminal || nodeMajor >= 23 ? 'spec' : 'tap';
    const reporters = [
      `--test-reporter=${usual}`,
      '--test-reporter-destination=stdout',
      `--test-reporter=${nodeReporterSpecifier(platform)}`,
      '--test-reporter-destination=stdout',
    ];
    return { command: [program!, ...reporters, ...args], probeReportsTests: true };
  }
  // mocha and jest: the Node preload follows their tests inside the processes that run them and writes
  // the timeline itself; `mocha --reporter tap` on stdout would report them a second time.
  const runner = command.slice(0, 3).map((a) => (a.split(/[\\/]/).pop() ?? a).replace(/\.(c?js|cmd|exe)$/i, ''));
  if (runner.some((a) => a === 'mocha' || a === '_mocha' || a === 'jest')) return { command: [...command], probeReportsTests: true };
  return { command: [...command], probeReportsTests: false };
}

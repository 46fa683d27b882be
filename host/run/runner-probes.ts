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

/** `userSeesTerminal`: Node picks `spec` for a terminal and `tap` otherwise; the command now sees a pipe. */
export function prepareCommand(command: readonly string[], userSeesTerminal: boolean, platform: NodeJS.Platform = process.platform): PreparedCommand {
  const [program, ...args] = command;
  const name = program ? basename(program).replace(/\.exe$/i, '') : '';
  const choseFormatter = args.some((a) => a === '-F' || a === '--formatter' || a.startsWith('--formatter='));
  if (name === 'bats' && !choseFormatter) {
    return { command: [program!, '--formatter', BATS_FORMATTER, ...args], probeReportsTests: true };
  }
  const choseReporter = args.some((a) => a.startsWith('--test-reporter'));
  if (name === 'node' && args.includes('--test') && !choseReporter) {
    const usual = userSeesTerminal ? 'spec' : 'tap';
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

// Node's test runner takes its reporters only on the command line: holdwatch's reporter beside the one
// Node would have used, unless the user chose.
import { pathToFileURL } from 'node:url';
import type { CommandLine } from './command-line.js';
import type { RunnerContext } from './runner.js';

export const NODE_REPORTER_FILE = 'node-reporter/holdwatch-reporter.mjs';

export function isNodeTest({ name, args }: CommandLine): boolean {
  return name === 'node' && args.includes('--test');
}

/**
 * Up to Node 22, Node picks `spec` for a terminal and `tap` otherwise (the command now sees a pipe, so
 * holdwatch names the one Node would have picked); from Node 23 it is `spec` everywhere.
 */
export function nodeTestWithReporter({ prefix, program, args }: CommandLine, context: RunnerContext): string[] {
  if (args.some((a) => a.startsWith('--test-reporter'))) return [...prefix, program, ...args];
  const usual = context.userSeesTerminal || context.nodeMajor >= 23 ? 'spec' : 'tap';
  const reporters = [
    `--test-reporter=${usual}`,
    '--test-reporter-destination=stdout',
    `--test-reporter=${nodeReporterSpecifier(context)}`,
    '--test-reporter-destination=stdout',
  ];
  return [...prefix, program, ...reporters, ...args];
}

/**
 * Node imports a `--test-reporter` that is not built in through its ESM loader, which takes `C:\...`
 * for a URL with scheme `c:` (ERR_UNSUPPORTED_ESM_URL_SCHEME): on Windows it must be a file:// URL.
 */
export function nodeReporterSpecifier({ probesDir, platform }: Pick<RunnerContext, 'probesDir' | 'platform'>): string {
  const reporter = probesDir + NODE_REPORTER_FILE;
  return platform === 'win32' ? pathToFileURL(reporter).href : reporter;
}

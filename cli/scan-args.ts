// `holdwatch scan <dir> [--json] [--check]` in its plain form, read without commander: loading
// commander is a large share of a one-shot scan's time. Anything else (help, an unknown or misspelt
// option, `--`, a second argument) is commander's to parse and to answer, so its messages stay the
// only ones; scan-args.test.ts holds the two parsers to one answer.
import { SCAN_FLAGS, type ScanFlag } from '../contract/scan-options.js';

export type PlainScan = { dir: string } & Record<ScanFlag, boolean>;

export function plainScanArgs(argv: readonly string[]): PlainScan | null {
  if (argv[0] !== 'scan') return null;
  let dir: string | undefined;
  const flags = Object.fromEntries(SCAN_FLAGS.map((f) => [f.name, false])) as Record<ScanFlag, boolean>;
  for (const arg of argv.slice(1)) {
    const flag = SCAN_FLAGS.find((f) => f.flag === arg);
    if (flag) flags[flag.name] = true;
    else if (arg.startsWith('-') || dir !== undefined) return null;
    else dir = arg;
  }
  return dir === undefined ? null : { dir, ...flags };
}

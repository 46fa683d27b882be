// `holdwatch scan <dir> [--json] [--check]` in its plain form, read without commander: loading
// commander is a large share of a one-shot scan's time. Anything else (help, an unknown or misspelt
// option, `--`, a second argument) is commander's to parse and to answer, so its messages stay the
// only ones; scan-args.test.ts holds the two parsers to one answer.

export interface PlainScan {
  dir: string;
  json: boolean;
  check: boolean;
}

export function plainScanArgs(argv: readonly string[]): PlainScan | null {
  if (argv[0] !== 'scan') return null;
  let dir: string | undefined;
  let json = false;
  let check = false;
  for (const arg of argv.slice(1)) {
    if (arg === '--json') json = true;
    else if (arg === '--check') check = true;
    else if (arg.startsWith('-') || dir !== undefined) return null;
    else dir = arg;
  }
  return dir === undefined ? null : { dir, json, check };
}

// `holdwatch run [options] -- <command...>` in its plain form, read without commander: loading it,
// building its program and parsing are a large share of what `run` does before its command starts,
// which every suite waits for. Anything else (help, an unknown or misspelt option, `--opt=value`,
// a value that looks like an option, no `--`) is commander's to parse and to answer, so its messages
// stay the only ones; run-args.test.ts holds the two parsers to one answer. RUN_OPTIONS is the one
// list of `run`'s options: main.ts builds commander's from it.
import { DEFAULT_GRACE_MS } from '../core/run/outliving-grace.js';
import type { RunOptions } from './run-command.js';

type ValueKey = 'watch' | 'report' | 'json' | 'html' | 'grace';
type SwitchKey = 'redact' | 'killLeftovers' | 'quiet';

export interface RunOptionSpec {
  /** `--flag`, and `<value>` for an option that takes one. */
  flag: string;
  value?: string;
  key: ValueKey | SwitchKey;
  help: string;
}

export const RUN_OPTIONS: readonly RunOptionSpec[] = [
  { flag: '--watch', value: '<dir>', key: 'watch', help: 'directory to watch (repeatable)' },
  { flag: '--report', value: '<file.md>', key: 'report', help: 'write a Markdown report, made to paste into an issue' },
  { flag: '--json', value: '<file.json>', key: 'json', help: 'write the run record as JSON' },
  { flag: '--html', value: '<file.html>', key: 'html', help: 'write a self-contained HTML report' },
  { flag: '--redact', key: 'redact', help: 'replace your home directory and user name in the reports' },
  {
    flag: '--kill-leftovers',
    key: 'killLeftovers',
    help: "end the run's leftover processes: those still alive when the command exits (leftover files stay)",
  },
  { flag: '--quiet', key: 'quiet', help: 'end with the counts line only (no headline, no report path)' },
  {
    flag: '--grace',
    value: '<ms>',
    key: 'grace',
    help: 'after the command exits, follow its processes still holding something under the watched dirs this long (0: off)',
  },
];

/** The longest --grace a user may ask for. */
export const MAX_GRACE_MS = 600_000;

/** --grace's value in ms, or null when it is not a whole number of ms in range. */
export function graceMsOf(value: string): number | null {
  const ms = Number(value);
  return /^\d+$/.test(value) && ms <= MAX_GRACE_MS ? ms : null;
}

export interface PlainRun {
  command: string[];
  options: RunOptions;
}

export function plainRunArgs(argv: readonly string[]): PlainRun | null {
  if (argv[0] !== 'run') return null;
  const options: RunOptions = { watch: [], grace: DEFAULT_GRACE_MS };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      const command = argv.slice(i + 1);
      return command.length > 0 ? { command, options } : null;
    }
    const spec = RUN_OPTIONS.find((o) => o.flag === arg);
    if (!spec) return null;
    if (spec.value === undefined) {
      options[spec.key as SwitchKey] = true;
      continue;
    }
    const value = argv[++i];
    if (value === undefined || value.startsWith('-')) return null;
    if (spec.key === 'watch') options.watch.push(value);
    else if (spec.key === 'grace') {
      const ms = graceMsOf(value);
      if (ms === null) return null;
      options.grace = ms;
    } else options[spec.key as 'report' | 'json' | 'html'] = value;
  }
  return null;
}

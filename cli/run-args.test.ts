// The plain `run` parser against commander's parse of the same words: it takes only what commander
// would take the same way, and leaves everything else (help, typos, `--opt=value`, no `--`) to commander.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsedByCommander } from '../tests/support/commander-parse.js';
import { plainRunArgs, type PlainRun } from './run-args.js';

// The version is read from the package.json beside dist/, which a test of the sources does not have.
vi.mock('../host/version.js', () => ({ holdwatchVersion: () => '0.0.0-test' }));

/** What commander hands the run action for `argv`, or null when it does not run it. */
async function commanderRun(argv: string[]): Promise<PlainRun | null> {
  const parsed = await parsedByCommander(argv, 'run');
  return parsed && { command: parsed[0] as string[], options: parsed[1] as PlainRun['options'] };
}

const cases: string[][] = [
  ['run', '--watch', '/tmp/w', '--', 'pytest', '-q'],
  ['run', '--watch', '/tmp/w', '--watch', '/tmp/v', '--', 'go', 'test', './...'],
  ['run', '--quiet', '--watch', '/tmp/w', '--redact', '--kill-leftovers', '--', 'npm', 'test', '--', '--runInBand'],
  ['run', '--watch', '/tmp/w', '--report', 'r.md', '--json', 'r.json', '--html', 'r.html', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--report', 'a.md', '--report', 'b.md', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--grace', '0', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--grace', '600000', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--grace', '600001', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--grace', '1.5', '--', 'true'],
  ['run', '--watch', '', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--', '--not-an-option-of-ours'],
  ['run', '--', 'true'],
  ['run', '--watch', '/tmp/w', '--'],
  ['run', '--watch', '/tmp/w', 'pytest', '-q'],
  ['run', '--watch=/tmp/w', '--', 'true'],
  ['run', '--watch', '--quiet', '--', 'true'],
  ['run', '--watch'],
  ['run', '--wach', '/tmp/w', '--', 'true'],
  ['run', '-h'],
  ['run', '--watch', '/tmp/w', '--help', '--', 'true'],
  ['run'],
  ['scan', '/tmp/w'],
];

describe('plainRunArgs', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(cases.map((argv) => [argv.join(' '), argv]))('%s: what commander parses, or left to commander', async (_name, argv) => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const plain = plainRunArgs(argv);
    if (plain !== null) expect(await commanderRun(argv)).toEqual(plain);
  });

  it('takes the plain forms (so the cases above compare something)', () => {
    expect(plainRunArgs(['run', '--watch', '/tmp/w', '--quiet', '--grace', '0', '--', 'pytest', '-q'])).toEqual({
      command: ['pytest', '-q'],
      options: { watch: ['/tmp/w'], quiet: true, grace: 0 },
    });
    expect(plainRunArgs(['run', '--watch', '/tmp/w', '--report', 'a.md', '--report', 'b.md', '--', 'true'])?.options.report).toBe('b.md');
    expect(plainRunArgs(['run', '--watch', '/tmp/w', 'pytest'])).toBeNull();
    expect(plainRunArgs(['run', '--watch', '/tmp/w', '--grace', '600001', '--', 'true'])).toBeNull();
    expect(plainRunArgs(['run', '--watch=/tmp/w', '--', 'true'])).toBeNull();
  });
});

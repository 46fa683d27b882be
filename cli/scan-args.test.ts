// The plain `scan` parser against commander's parse of the same words: it takes only what commander
// would take the same way, and leaves everything else (help, typos, `--`, extra words) to commander.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parsedByCommander } from '../tests/support/commander-parse.js';
import { plainScanArgs, type PlainScan } from './scan-args.js';

// The version is read from the package.json beside dist/, which a test of the sources does not have.
vi.mock('../host/version.js', () => ({ holdwatchVersion: () => '0.0.0-test' }));

/** What commander hands the scan action for `argv`, or null when it does not run it. */
async function commanderScan(argv: string[]): Promise<PlainScan | null> {
  const parsed = await parsedByCommander(argv, 'scan');
  if (!parsed) return null;
  const [dir, options] = parsed as [string, { json?: boolean; check?: boolean }];
  return { dir, json: options.json === true, check: options.check === true };
}

const cases: string[][] = [
  ['scan', '/tmp/w'],
  ['scan', '/tmp/w', '--json'],
  ['scan', '--json', '/tmp/w'],
  ['scan', '--check', '/tmp/w', '--json'],
  ['scan', '/tmp/w', '--json', '--json'],
  ['scan', 'relative dir with spaces'],
  ['scan', ''],
  ['scan', '--', '/tmp/w'],
  ['scan', '--', '-starts-with-dash'],
  ['scan', '-x', '/tmp/w'],
  ['scan', '/tmp/w', '--jsn'],
  ['scan', '/tmp/w', 'second'],
  ['scan'],
  ['scan', '--help'],
  ['scan', '/tmp/w', '-h'],
  ['scan', '--json=yes', '/tmp/w'],
  ['watch', '/tmp/w'],
  ['--version'],
];

describe('plainScanArgs', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(cases.map((argv) => [argv.join(' '), argv]))('%s: what commander parses, or left to commander', async (_name, argv) => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const plain = plainScanArgs(argv);
    if (plain !== null) expect(await commanderScan(argv)).toEqual(plain);
  });

  it('takes the plain forms (so the cases above compare something)', () => {
    expect(plainScanArgs(['scan', '--check', '/tmp/w', '--json'])).toEqual({ dir: '/tmp/w', json: true, check: true });
    expect(plainScanArgs(['scan', ''])).toEqual({ dir: '', json: false, check: false });
    expect(plainScanArgs(['scan', '--', '/tmp/w'])).toBeNull();
    expect(plainScanArgs(['scan', '/tmp/w', '--jsn'])).toBeNull();
  });
});

// Names that reach a terminal (reliability-2.md F10, F11): the watched dir's own name in `scan`'s footer,
// `watch`'s notice and the one-line errors, and the commands `holdwatch runs` lists, came out raw; an
// ESC in a dir name could retitle the terminal or hide text, a newline broke "one line per run". Each
// is printed escaped, and a bidi override (U+202E) is shown, not obeyed, in reports too.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../support/cli.js';

const HOSTILE = 'evil\x1b]0;pwned\x07\x1b[31m\u202etxt.exe\nnext';
let scratch: string;
let dir: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-escapes-'));
  dir = join(scratch, HOSTILE);
  mkdirSync(dir);
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** No ESC, BEL, C1 control or bidi override; the name whole on its first line. */
function expectInert(text: string): void {
  expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  expect(text.split('\n')[0]).toContain('evil\\x1b]0;pwned\\x07\\x1b[31m\\u202etxt.exe\\nnext');
}

describe('the watched dir’s own name on a terminal', () => {
  it('scan: the footer', async () => {
    const scan = await runCli(['scan', dir]);
    expect(scan.code, scan.stderr).toBe(0);
    expectInert(scan.stdout); // a second line may count processes that ended mid-read
  });

  it('a one-line error quoting it', async () => {
    const missing = await runCli(['scan', join(dir, 'missing')]);
    expect(missing.code).toBe(2);
    expectInert(missing.stderr);
    expect(missing.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('watch: the notice', async () => {
    const watch = startCli(['watch', dir]);
    try {
      const notice = await watch.waitForStderrLine((line) => line.includes('Ctrl-C to stop'));
      expectInert(notice);
    } finally {
      watch.child.kill('SIGTERM');
    }
  });

  it('runs: a command with an escape and a newline stays one inert line', async () => {
    const data = join(scratch, 'data');
    const run = await runCli(['run', '--watch', dir, '--', 'sh', '-c', 'true', HOSTILE], { env: { HOLDWATCH_DATA_DIR: data } });
    expect(run.code, run.stderr).toBe(0);
    const runs = await runCli(['runs'], { env: { HOLDWATCH_DATA_DIR: data } });
    expect(runs.code, runs.stderr).toBe(0);
    expectInert(runs.stdout);
    expect(runs.stdout.trimEnd().split('\n')).toHaveLength(1);
  });
});

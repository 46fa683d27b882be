// Bad input: one line on stderr, exit code 2, never a stack trace.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLinuxWatchDir } from '../../native/linux/linux-holder-source.js';
import { BadInputError } from '../../core/errors.js';
import { runCli } from '../support/cli.js';

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'hw-bad-'));
  writeFileSync(join(root, 'a-file'), 'x');
  mkdirSync(join(root, 'locked'), { mode: 0o700 });
  chmodSync(root, 0o755);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function expectOneLineExit2(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^holdwatch: /);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('bad input', () => {
  for (const command of ['scan', 'watch']) {
    it(`${command}: a missing directory`, async () => {
      expectOneLineExit2(await runCli([command, join(root, 'nope')]), /no such directory/);
    });
    it(`${command}: a file instead of a directory`, async () => {
      expectOneLineExit2(await runCli([command, join(root, 'a-file')]), /not a directory/);
    });
    it(`${command}: an empty string`, async () => {
      expectOneLineExit2(await runCli([command, '']), /no directory given/);
    });
    it(`${command}: no argument`, async () => {
      expectOneLineExit2(await runCli([command]), /missing required argument/);
    });
  }

  it('a path through a file is not a directory', async () => {
    expectOneLineExit2(await runCli(['scan', join(root, 'a-file', 'x')]), /not a directory/);
  });

  it('an unknown option and a bad interval', async () => {
    expectOneLineExit2(await runCli(['scan', root, '--frobnicate']), /unknown option/);
    expectOneLineExit2(await runCli(['watch', root, '--interval', 'soon']), /--interval/);
    expectOneLineExit2(await runCli(['watch', root, '--interval', '0']), /--interval/);
  });

  it('an unknown command', async () => {
    expectOneLineExit2(await runCli(['frobnicate']), /unknown command/);
  });

  // argv cannot carry a NUL byte (execve truncates, Node refuses), so the check is met where a path
  // can carry one: the API that the UI and scripts call.
  it('a path with a NUL byte is refused by the resolver', () => {
    expect(() => resolveLinuxWatchDir(`${root}\0x`)).toThrow(BadInputError);
    expect(() => resolveLinuxWatchDir(`${root}\0x`)).toThrow(/NUL byte/);
  });

  it.skipIf(process.getuid?.() !== 0)('a directory the user may not read (as nobody)', async () => {
    expectOneLineExit2(await runCli(['scan', join(root, 'locked')], { asUser: 'nobody', cwd: '/' }), /permission denied/);
  });
});

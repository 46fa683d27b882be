// Bad input: one line on stderr, exit code 2, never a stack trace.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

  it('a typo: one line that suggests the command or option meant', async () => {
    expectOneLineExit2(await runCli(['scna', root]), /^holdwatch: unknown command 'scna'; did you mean scan\?$/m);
    expectOneLineExit2(await runCli(['run', '--wacth', root, '--', 'true']), /unknown option '--wacth'; did you mean --watch\?$/m);
  });

  // argv cannot carry a NUL byte (execve truncates, Node refuses), so the check is met where a path
  // can carry one: the API that the UI and scripts call.
  it('a path with a NUL byte is refused by the resolver', () => {
    expect(() => resolveLinuxWatchDir(`${root}\0x`)).toThrow(BadInputError);
    expect(() => resolveLinuxWatchDir(`${root}\0x`)).toThrow(/NUL byte/);
  });

  // The twelve of the reliability review (shared/reviews/reliability.md D8) that gave exit 70, hung, or
  // printed the whole help: each now one line and exit 2, and none runs the command.
  describe('the review’s twelve', () => {
    const data = () => ({ HOLDWATCH_DATA_DIR: join(root, 'data') });
    const watched = () => join(root, 'watched');
    beforeAll(() => {
      mkdirSync(watched(), { recursive: true });
      writeFileSync(join(root, 'not-executable'), 'echo never');
      mkdirSync(join(root, 'a-dir.jsonl'));
      execFileSync('mkfifo', [join(root, 'fifo.jsonl')]);
      symlinkSync('/dev/zero', join(root, 'zero.jsonl'));
      writeFileSync(join(root, 'private.jsonl'), '{}\n', { mode: 0o600 });
    });
    const ran = () => join(root, 'ran');
    const marker = () => `touch ${JSON.stringify(join(root, 'ran'))}`;

    it('run: a command that is not executable, a directory, or empty', async () => {
      expectOneLineExit2(
        await runCli(['run', '--watch', watched(), '--', join(root, 'not-executable')], { env: data() }),
        /cannot run .*not-executable: EACCES/,
      );
      expectOneLineExit2(await runCli(['run', '--watch', watched(), '--', root], { env: data() }), /cannot run .*: EACCES/);
      expectOneLineExit2(await runCli(['run', '--watch', watched(), '--', ''], { env: data() }), /the command is empty/);
    });

    it('run: a data dir that is a file, or one the user may not write', async () => {
      expectOneLineExit2(
        await runCli(['run', '--watch', watched(), '--', 'sh', '-c', marker()], { env: { HOLDWATCH_DATA_DIR: join(root, 'a-file') } }),
        /data directory .* cannot be used \(ENOTDIR\)/,
      );
      if (process.getuid?.() === 0)
        expectOneLineExit2(
          await runCli(['run', '--watch', '/var/tmp', '--', 'true'], { asUser: 'nobody', cwd: '/', env: { HOLDWATCH_DATA_DIR: join(root, 'locked', 'data') } }),
          /data directory .* cannot be used \(EACCES\)/,
        );
      expect(existsSync(ran())).toBe(false);
    });

    it('run: a report that could not be written is refused before the command runs', async () => {
      expectOneLineExit2(
        await runCli(['run', '--watch', watched(), '--report', '/nonexistent/r.md', '--', 'sh', '-c', marker()], { env: data() }),
        /no such directory \/nonexistent/,
      );
      expectOneLineExit2(await runCli(['run', '--watch', watched(), '--json', '', '--', 'sh', '-c', marker()], { env: data() }), /a report path is empty/);
      expectOneLineExit2(
        await runCli(['run', '--watch', watched(), '--html', join(root, 'a-dir.jsonl'), '--', 'sh', '-c', marker()], { env: data() }),
        /is a directory/,
      );
      expect(existsSync(ran())).toBe(false);
    });

    it('report: a directory, a FIFO, /dev/zero behind a link (none may hang), an unreadable file', async () => {
      expectOneLineExit2(await runCli(['report', join(root, 'a-dir.jsonl')]), /not a journal file/);
      expectOneLineExit2(await runCli(['report', join(root, 'fifo.jsonl')]), /not a journal file/);
      expectOneLineExit2(await runCli(['report', join(root, 'zero.jsonl')]), /not a journal file/);
      if (process.getuid?.() === 0)
        expectOneLineExit2(await runCli(['report', join(root, 'private.jsonl')], { asUser: 'nobody', cwd: '/' }), /cannot read .*: EACCES/);
    });

    it.skipIf(process.getuid?.() !== 0)('ui: a privileged port as an unprivileged user', async () => {
      expectOneLineExit2(
        await runCli(['ui', '--port', '80', '--no-open'], { asUser: 'nobody', cwd: '/', env: { HOLDWATCH_DATA_DIR: join(root, 'nobody-data') } }),
        /port 80 needs privileges/,
      );
    });

    it('close: a bad pid, no --under, and on Linux the reason it is not offered (ptrace)', async () => {
      expectOneLineExit2(await runCli(['close', 'abc', '0x1a4', '--under', root]), /expected a process id, got "abc"/);
      expectOneLineExit2(await runCli(['close', String(process.pid), '0x1a4']), /required option '--under <dir>'/);
      expectOneLineExit2(await runCli(['close', String(process.pid), '0x1a4', '--under', root, '--yes']), /not offered on Linux: it needs ptrace/);
    });

    it('no command at all: one line, not the help', async () => {
      expectOneLineExit2(await runCli([]), /no command given/);
    });
  });

  it.skipIf(process.getuid?.() !== 0)('a directory the user may not read (as nobody)', async () => {
    expectOneLineExit2(await runCli(['scan', join(root, 'locked')], { asUser: 'nobody', cwd: '/' }), /permission denied/);
  });
});

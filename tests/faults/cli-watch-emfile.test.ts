// `holdwatch watch` when its own fd table fills (reliability-2.md F3): it used to end on the first
// EMFILE ("internal error: EMFILE: too many open files"). The test lowers the running watch's soft
// RLIMIT_NOFILE below the fds it already has (prlimit --pid), so its next open fails as in a flood,
// then gives the limit back: the watch says once that it retries, and then shows a holder that came
// while it could not scan.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { setSoftFdLimit, softFdLimitOf } from '../support/fd-limit.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-cli-emfile-'));
});

afterAll(async () => {
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('holdwatch watch whose scans meet EMFILE', () => {
  it('says once that it retries, keeps going, and shows the holder that came meanwhile', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const watch = startCli(['watch', watched, '--json', '--interval', '100']);
    let exitCode: number | null | undefined;
    watch.child.on('exit', (code) => (exitCode = code));
    try {
      await watch.waitForStderrLine((line) => line.includes('Ctrl-C to stop'));
      const pid = watch.child.pid!;
      const soft = softFdLimitOf(pid);
      // Below the fds Node opened at start-up: every new open fails, as when the table is full.
      setSoftFdLimit(pid, '12');
      const retrying = await watch.waitForStderrLine((line) => line.includes('Scans are failing') || line.includes('internal error'));
      expect(retrying).toMatch(/^holdwatch: Scans are failing \(EMFILE.*\); trying again in \d+ s\.$/);

      const late = join(watched, 'came-while-failing.txt');
      await pythonHoldingFile(late);
      setSoftFdLimit(pid, soft);
      const appeared = await watch.waitForLine((line) => line.includes('came-while-failing.txt'), 60_000);
      expect(JSON.parse(appeared)).toMatchObject({ type: 'appeared', holder: { path: late } });
      await watch.waitForStderrLine((line) => line === 'holdwatch: scans work again');
      expect(exitCode).toBeUndefined();

      const exited = new Promise<number | null>((resolve) => watch.child.on('exit', resolve));
      watch.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      watch.child.kill('SIGKILL');
    }
  }, 90_000);
});

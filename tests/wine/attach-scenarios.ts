// `holdwatch attach` under Wine: runs holdwatch did not start, as on Windows when the suite runs from
// an IDE or a terminal. By pid: a process started apart, followed until it exits. By announcement: a
// `node --test` run with holdwatch's reporter, started apart, announces itself in the inbox and is
// recorded as a run. Registered from wine.test.ts (one file per prefix).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { host, REPO, useWindowsScratch, waitFor, waitForFile, winPath } from './wine-harness.js';

const bin = winPath(join(REPO, 'bin', 'holdwatch.js'));
const fixture = (name: string) => winPath(join(REPO, 'tests', 'wine', 'fixtures', name));

export function describeAttachUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`holdwatch attach ${host.where}`, () => {
    const suite = useWindowsScratch('attach');
    beforeAll(() => {
      // attach and the probe meet in <data dir>\inbox: the data dir must be the Windows one (%LOCALAPPDATA%).
      delete suite.wine.env.HOLDWATCH_DATA_DIR;
    });

    it('attach --pid follows a process holdwatch did not start, records what it held, and ends when it exits', async () => {
      const { procs, scratch } = suite;
      const dir = join(scratch, 'by-pid');
      mkdirSync(dir);
      writeFileSync(join(dir, 'held.txt'), 'x');
      const [ready, release, open] = ['ready', 'release', 'open'].map((n) => join(scratch, `target.${n}`)) as [string, string, string];
      const target = procs.start('attach-target', [
        fixture('holder.mjs'),
        winPath(ready),
        winPath(release),
        `wait=${winPath(open)}`,
        `share0=${winPath(join(dir, 'held.txt'))}`,
      ]);
      const pid = (JSON.parse(await waitForFile(ready, target.child, target.logs.err)) as { pid: number }).pid;
      const json = join(scratch, 'by-pid.json');
      const attach = procs.start('attach-pid', [bin, 'attach', '--watch', winPath(dir), '--pid', String(pid), '--json', winPath(json)]);
      const exited = new Promise<number | null>((resolve) => attach.child.once('exit', (code) => resolve(code)));
      await waitFor(() => readFileSync(attach.logs.err, 'utf8').includes(`holdwatch: attached to pid ${pid}`), attach.logs.err);
      writeFileSync(open, 'now'); // the target opens its file only now, while followed
      await new Promise((resolve) => setTimeout(resolve, 3000)); // many polls
      writeFileSync(release, 'go');
      expect(await exited, readFileSync(attach.logs.err, 'utf8')).toBe(0);
      const record = JSON.parse(readFileSync(json, 'utf8')) as RunRecord;
      expect(record.platform).toBe('win32');
      expect(record.holders.filter((h) => h.pid === pid).map((h) => [h.kind, h.path, h.processName])).toEqual([
        ['file', winPath(join(dir, 'held.txt')), 'node.exe'],
      ]);
    }, 120_000);

    it('attach with no pid records a node --test run that announced itself through the reporter, and stops on Ctrl-C', async () => {
      const { procs, scratch, wine } = suite;
      const dir = join(scratch, 'announced');
      mkdirSync(dir);
      const attach = procs.start('attach-inbox', [bin, 'attach', '--watch', winPath(dir), '--json', winPath(join(scratch, 'announced.json'))]);
      const exited = new Promise<number | null>((resolve) => attach.child.once('exit', (code) => resolve(code)));
      await waitFor(() => readFileSync(attach.logs.err, 'utf8').includes('holdwatch: waiting for runs announced in'), attach.logs.err);

      // Node on Windows takes a reporter as a relative path or a file: URL, not as C:\... (ERR_UNSUPPORTED_ESM_URL_SCHEME).
      const reporter = './probes/node-reporter/holdwatch-reporter.mjs';
      wine.env.EXAMPLE_DIR = winPath(dir);
      let suiteRun;
      try {
        suiteRun = await procs.run(
          'announced-suite',
          [
            '--test-reporter=spec',
            '--test-reporter-destination=stdout',
            `--test-reporter=${reporter}`,
            '--test-reporter-destination=stdout',
            '--test',
            'examples/node-ebusy/ebusy.test.mjs',
          ],
          150_000,
        );
      } finally {
        delete wine.env.EXAMPLE_DIR;
      }
      expect(suiteRun.code).toBe(1); // the after hook failed with EBUSY, as on Windows
      expect(suiteRun.stdout).toContain('EBUSY');
      const recorded = () => readdirSync(scratch).filter((f) => /^announced-.+\.json$/.test(f));
      await waitFor(() => recorded().length === 1, attach.logs.err);
      await procs.interrupt(attach.child);
      expect(await exited, readFileSync(attach.logs.err, 'utf8')).toBe(0);

      const record = JSON.parse(readFileSync(join(scratch, recorded()[0]!), 'utf8')) as RunRecord;
      expect(record.platform).toBe('win32');
      expect(record.tests.map((t) => [t.name, t.outcome])).toEqual([
        ['examples/node-ebusy/ebusy.test.mjs > writes the lock file', 'passed'],
        ['examples/node-ebusy/ebusy.test.mjs > reads the cache', 'passed'],
      ]);
      // The lock file is held from the first test to the process's exit (the after hook fails before closing
      // it), so the followed run sees it. Which test it was first seen in is poll timing here: an attached
      // run has no open records (holdwatch did not start the process, so no preload), and under load the
      // first poll of the new process may come after the 300 ms test.
      const lock = record.holders.filter((h) => h.path === winPath(join(dir, 'cache', 'cache.lock')));
      const rows = lock.map((h) => ({ pid: h.pid, startedAtMs: h.processStartedAtMs, handle: h.handle, verdict: h.attribution.verdict }));
      expect(
        lock.map((h) => [h.kind, h.processName]),
        JSON.stringify(rows),
      ).toEqual([['file', 'node.exe']]);
      expect(existsSync(join(scratch, 'announced.json'))).toBe(false); // each announced run gets its own file
    }, 200_000);
  });
}

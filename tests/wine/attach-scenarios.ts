// `holdwatch attach` under Wine: runs holdwatch did not start, as on Windows when the suite runs from
// an IDE or a terminal. By pid: a process started apart, followed until it exits. By announcement: a
// `node --test` run with holdwatch's reporter, started apart, announces itself in the inbox and is
// recorded as a run. Registered from wine.test.ts (one file per prefix).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, win32 } from 'node:path';
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
      const said = () => readFileSync(attach.logs.err, 'utf8');
      await waitFor(() => said().includes('holdwatch: waiting for runs announced in'), attach.logs.err);
      const inbox = /waiting for runs announced in (.+) \(Ctrl-C to stop\)/.exec(said())![1]!;

      // Node on Windows takes a reporter as a relative path or a file: URL, not as C:\... (ERR_UNSUPPORTED_ESM_URL_SCHEME).
      const reporter = './probes/node-reporter/holdwatch-reporter.mjs';
      const release = join(scratch, 'announced.release');
      Object.assign(wine.env, { EXAMPLE_DIR: winPath(dir), RELEASE_FILE: winPath(release) });
      let started: ReturnType<typeof procs.start>;
      try {
        started = procs.start('announced-suite', [
          '--test-reporter=spec',
          '--test-reporter-destination=stdout',
          `--test-reporter=${reporter}`,
          '--test-reporter-destination=stdout',
          '--test',
          'tests/wine/fixtures/lock-until-seen.test.mjs',
        ]);
      } finally {
        delete wine.env.EXAMPLE_DIR;
        delete wine.env.RELEASE_FILE;
      }
      const suiteExited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
      // The suite holds the lock until the attached run has journaled it: polls alone see an attached
      // run's files (no preload records the open), and a scan of the whole system may outlast a short test.
      await waitFor(() => /following pid \d+ .*; run \S+/.test(said()), attach.logs.err);
      const runId = /following pid \d+ .*; run (\S+)/.exec(said())![1]!;
      const journal = host.fromWindows(win32.join(win32.dirname(inbox), 'runs', `${runId}.jsonl`), wine);
      const lockPath = winPath(join(dir, 'cache', 'cache.lock'));
      const journaled = () =>
        existsSync(journal) &&
        readFileSync(journal, 'utf8')
          .split('\n')
          .some((line) => line.includes('"t":"appeared"') && line.includes(JSON.stringify(lockPath)));
      await waitFor(journaled, attach.logs.err, 120_000);
      writeFileSync(release, 'seen');
      expect(await suiteExited).toBe(1); // the after hook failed with EBUSY, as on Windows
      await started.flushed;
      expect(readFileSync(started.logs.out, 'utf8')).toContain('EBUSY');
      const recorded = () => readdirSync(scratch).filter((f) => /^announced-.+\.json$/.test(f));
      await waitFor(() => recorded().length === 1, attach.logs.err);
      await procs.interrupt(attach.child);
      expect(await exited, said()).toBe(0);

      const record = JSON.parse(readFileSync(join(scratch, recorded()[0]!), 'utf8')) as RunRecord;
      expect(record.platform).toBe('win32');
      const inFile = (name: string) => `tests/wine/fixtures/lock-until-seen.test.mjs > ${name}`;
      expect(record.tests.map((t) => [t.name, t.outcome])).toEqual([
        [inFile('writes the lock file'), 'passed'],
        [inFile('reads the cache'), 'passed'],
      ]);
      // Held from the first test to the process's exit (the after hook fails before closing it): one
      // holder, however many polls met it. Which test it was first seen in is poll timing: not asserted.
      const lock = record.holders.filter((h) => h.path === lockPath);
      const rows = lock.map((h) => ({ pid: h.pid, startedAtMs: h.processStartedAtMs, handle: h.handle, verdict: h.attribution.verdict }));
      expect(
        lock.map((h) => [h.kind, h.processName]),
        JSON.stringify(rows),
      ).toEqual([['file', 'node.exe']]);
      expect(existsSync(join(scratch, 'announced.json'))).toBe(false); // each announced run gets its own file
    }, 300_000);
  });
}

// `holdwatch run` under Wine: Windows node.exe runs holdwatch, holdwatch runs `node.exe --test` on the
// node-ebusy example, and the suite's `after` hook really fails with EBUSY on a share-mode-0 file.
// Registered from wine.test.ts, after its suite: one vitest file keeps every Wine process of the
// run in sequence (a second file would race it in the same prefix, whose `wineserver -k` ends all).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { host, prepareWindows, REPO, winPath, WindowsProcesses, type NodeRun, type WindowsEnv } from './wine-harness.js';

export function describeRunUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`holdwatch run ${host.where}`, () => {
    let wine: WindowsEnv;
    let procs: WindowsProcesses;
    let scratch: string;
    const journals: string[] = [];

    beforeAll(() => {
      wine = prepareWindows(`run-${process.pid}-${Date.now()}`);
      // The data dir must come from %LOCALAPPDATA% (Wine sets it to C:\users\<user>\AppData\Local).
      delete wine.env.HOLDWATCH_DATA_DIR;
      scratch = host.makeScratch('holdwatch-wine-run-');
      procs = new WindowsProcesses(wine, scratch);
    }, 300_000);

    afterAll(() => {
      procs?.killAll();
      procs?.stopHost();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
      for (const journal of journals) rmSync(journal, { force: true });
    });

    /** A path holdwatch printed, as this process opens it (under Wine: `C:\users\...` in the prefix's drive_c). */
    const fromWine = (windowsPath: string) => host.fromWindows(windowsPath, wine);
    const fixture = (name: string) => winPath(join(REPO, 'tests', 'wine', 'fixtures', name));

    it('node --test with a share-mode-0 lock file: EBUSY in the after hook, the holder blocked it, the report says so', async () => {
      const dir = join(scratch, 'node-ebusy');
      mkdirSync(dir);
      const lock = winPath(join(dir, 'cache', 'cache.lock'));
      const out = { json: join(scratch, 'run.json'), md: join(scratch, 'run.md') };
      const args = [
        'run',
        '--watch',
        winPath(dir),
        '--json',
        winPath(out.json),
        '--report',
        winPath(out.md),
        '--',
        winPath(wine.nodeExe),
        '--test',
        'examples/node-ebusy/ebusy.test.mjs',
      ];
      wine.env.EXAMPLE_DIR = winPath(dir);
      let run: NodeRun;
      try {
        run = await procs.run('run-ebusy', [winPath(join(REPO, 'bin', 'holdwatch.js')), ...args], 150_000);
      } finally {
        delete wine.env.EXAMPLE_DIR;
      }
      const journal = /journal (.+\.jsonl)$/m.exec(run.stderr)?.[1];
      if (journal) journals.push(fromWine(journal), fromWine(journal.replace(/\.jsonl$/, '.events.jsonl')));

      // The runner really failed on Windows' terms, and holdwatch passed its output and exit code on.
      expect(run.stdout).toMatch(/^not ok \d+ - .*ebusy\.test\.mjs$/m);
      expect(run.stdout).toContain("failureType: 'hookFailed'");
      expect(run.stdout).toContain('EBUSY: resource busy or locked');
      expect(run.code, run.story).toBe(1);

      const record = JSON.parse(readFileSync(out.json, 'utf8')) as RunRecord;
      expect(record.platform).toBe('win32');
      expect(record.exitCode).toBe(1);
      // Test names from the bundled reporter (stdout's TAP is not read when the reporter runs).
      expect(record.tests.map((t) => [t.name, t.outcome])).toEqual([
        ['examples/node-ebusy/ebusy.test.mjs > writes the lock file', 'passed'],
        ['examples/node-ebusy/ebusy.test.mjs > reads the cache', 'passed'],
      ]);

      const failure = record.failures[0]!;
      expect(record.failures).toHaveLength(1);
      expect({ kind: failure.kind, code: failure.code, path: failure.path }).toEqual({ kind: 'busy', code: 16, path: lock });
      const rows = JSON.stringify(failure.holders.map((h) => ({ pid: h.pid, startedAtMs: h.processStartedAtMs, handle: h.handle, access: h.access })));
      expect(
        failure.holders.map((h) => [h.kind, h.path, h.processName, h.attribution.verdict]),
        rows,
      ).toEqual([['file', lock, 'node.exe', 'blocked-cleanup']]);
      const holder = failure.holders[0]!;
      expect(holder.commandLine).toMatch(/ebusy\.test\.mjs$/);
      // The test that opened it comes from the probe's open record; which test a poll first saw it in is
      // timing (a loaded machine's first poll can land in the next test) and is not asserted.
      expect([holder.attribution.openedDuring, holder.attribution.openedDuringBy]).toEqual([
        'examples/node-ebusy/ebusy.test.mjs > writes the lock file',
        'probe-open',
      ]);
      const opened = holder.attribution.openStack;
      expect(opened?.found && opened.stack.frames.find((f) => f.user)).toMatchObject({ file: expect.stringMatching(/ebusy\.test\.mjs$/), line: 17 });
      expect(holder.attribution.ancestry.map((a) => a.pid)).toEqual([holder.pid, holder.ppid]);
      expect(holder.attribution.ancestry[1]!.commandLine).toContain('--test examples/node-ebusy/ebusy.test.mjs');
      // Nothing outside the run (holdwatch itself, its name worker) held anything under the dir.
      expect(record.holders.filter((h) => h.attribution.verdict === 'outside-run')).toEqual([]);

      const headline = readFileSync(out.md, 'utf8').split('\n')[0]!;
      expect(headline).toContain('(EBUSY)');
      expect(headline).toContain(`\`node.exe\` PID ${holder.pid}`);
      expect(headline).toContain('cache\\cache.lock');

      // The run journal went to %LOCALAPPDATA%\holdwatch\runs, with the reporter's events beside it.
      expect(journal).toMatch(new RegExp(`^C:\\\\users\\\\[^\\\\]+\\\\AppData\\\\Local\\\\holdwatch\\\\runs\\\\${record.runId}\\.jsonl$`, 'i'));
      expect(existsSync(fromWine(journal!))).toBe(true);
      expect(JSON.parse(readFileSync(fromWine(journal!), 'utf8').split('\n')[0]!)).toMatchObject({ t: 'run-start', runId: record.runId, platform: 'win32' });
      const events = readFileSync(fromWine(journal!.replace(/\.jsonl$/, '.events.jsonl')), 'utf8');
      expect(events).toContain('"type":"test-start","name":"examples/node-ebusy/ebusy.test.mjs > writes the lock file"');
    }, 180_000);

    it("a run's file is named once, at first sight: system scans between its focus scans do not duplicate its handle again", async () => {
      const dir = join(scratch, 'focus-names');
      mkdirSync(dir);
      const out = join(scratch, 'focus-names.json');
      const scan = await procs.run(
        'focus-names',
        [fixture('focus-names-scan.mjs'), winPath(join(REPO, 'dist')), winPath(dir), winPath(scratch), winPath(out)],
        150_000,
      );
      expect(scan.code, scan.stderr).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8')) as { runHeld: boolean; run: number; stranger: number };
      // The control: a process outside the run is re-checked (its name asked again, due at once).
      expect(r.stranger).toBeGreaterThanOrEqual(3);
      expect([r.runHeld, r.run]).toEqual([true, 1]);
    }, 180_000);

    // holdwatch must never be the last holder: a duplicate it holds while naming a handle keeps the
    // file's share mode after the test closes it, and the test's delete fails because of holdwatch.
    it('a process that closes a share-mode-0 file and deletes it at once, 50 times while run polls it: every delete succeeds', async () => {
      const dir = join(scratch, 'close-delete');
      mkdirSync(dir);
      const loop = winPath(join(REPO, 'tests', 'wine', 'fixtures', 'close-delete-loop.mjs'));
      const run = await procs.run(
        'run-close-delete',
        [winPath(join(REPO, 'bin', 'holdwatch.js')), 'run', '--watch', winPath(dir), '--', winPath(wine.nodeExe), loop, winPath(dir)],
        170_000,
      );
      const journal = /journal (.+\.jsonl)$/m.exec(run.stderr)?.[1];
      if (journal) journals.push(fromWine(journal), fromWine(journal.replace(/\.jsonl$/, '.events.jsonl')));
      expect(run.stdout).toContain('deleted 50 of 50');
      expect(run.code, run.stdout + run.stderr).toBe(0);
    }, 180_000);
  });
}

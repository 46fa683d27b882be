// `holdwatch close` under Wine: a second Windows process holds a file with share mode 0, so deleting
// it fails (EBUSY); closing that one handle through DuplicateHandle(DUPLICATE_CLOSE_SOURCE) makes it
// deletable while the holder lives on. The refusals leave the handle open: no terminal and no --yes, a
// dir the handle is not under, a path or start time other than the user saw, a value that is no
// handle, the process's current directory, holdwatch itself. What Wine cannot show (a protected
// process, access denied) has unit tests of the decision (core/close-policy.test.ts).
// Registered from wine.test.ts (one file per prefix).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../contract/holders.js';
import { host, REPO, useWindowsScratch, waitForFile, winPath } from './wine-harness.js';

export function describeCloseUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`holdwatch close ${host.where}`, () => {
    const suite = useWindowsScratch('close');
    const bin = winPath(join(REPO, 'bin', 'holdwatch.js'));

    it("closes a second process's share-mode-0 handle: the file becomes deletable, the holder lives on; every refusal leaves it held", async () => {
      const { procs, scratch } = suite;
      const dir = join(scratch, 'watched');
      mkdirSync(join(dir, 'cwd-dir'), { recursive: true });
      mkdirSync(`${dir}-other`);
      const locked = join(dir, 'locked.txt');
      writeFileSync(locked, 'exclusive');
      const start = async (name: string, specs: string[]) => {
        const ready = join(scratch, `${name}.ready`);
        const holder = procs.start(name, [
          winPath(join(REPO, 'tests', 'wine', 'fixtures', 'holder.mjs')),
          winPath(ready),
          winPath(join(scratch, 'release')),
          ...specs,
        ]);
        return { holder, pid: (JSON.parse(await waitForFile(ready, holder.child, holder.logs.err)) as { pid: number }).pid };
      };
      const closable = await start('closable', [`share0=${winPath(locked)}`]);
      const cwdHolder = await start('cwd', [`cwd=${winPath(join(dir, 'cwd-dir'))}`]);

      const scan = await procs.run('scan', [bin, 'scan', winPath(dir), '--json']);
      expect(scan.code, scan.stderr).toBe(0);
      const holders = (JSON.parse(scan.stdout) as Snapshot).holders;
      const row = holders.find((h) => h.pid === closable.pid && h.path === winPath(locked))!;
      const cwdRow = holders.find((h) => h.pid === cwdHolder.pid && h.kind === 'cwd')!;
      expect(row.handle).toMatch(/^0x[0-9a-f]+$/);
      expect(cwdRow.handle).toMatch(/^0x[0-9a-f]+$/);

      const rmScript = join(scratch, 'rm.cjs');
      writeFileSync(rmScript, `try { require('fs').unlinkSync(process.argv[2]); console.log('removed'); } catch (e) { console.log(e.code); }`);
      let removals = 0;
      const remove = async () => (await procs.run(`rm-${removals++}`, [winPath(rmScript), winPath(locked)])).stdout.trim();
      expect(await remove()).toBe('EBUSY');

      const close = (name: string, args: string[]) => procs.run(name, [bin, 'close', String(closable.pid), row.handle!, ...args]);
      // No terminal (stdin is /dev/null here) and no --yes: nobody can answer, so nothing is asked or closed.
      const noTty = await close('close-no-tty', ['--under', winPath(dir)]);
      expect([noTty.code, noTty.stderr.trim()]).toEqual([2, 'holdwatch: close asks before it closes: run it in a terminal, or pass --yes']);
      const elsewhere = await close('close-elsewhere', ['--under', winPath(`${dir}-other`), '--yes']);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr.trim()).toMatch(
        new RegExp(`^holdwatch: handle ${row.handle} of node\\.exe \\(PID ${closable.pid}\\) names no file under .*-other: nothing closed$`),
      );
      const badValue = await procs.run('close-bad-value', [bin, 'close', String(closable.pid), '0x1a5', '--under', winPath(dir), '--yes']);
      expect([badValue.code, badValue.stderr.trim()]).toEqual([2, 'holdwatch: "0x1a5" is not a handle value (a scan prints them as 0x1a4)']);

      const refusalsOut = join(scratch, 'refusals.json');
      const refusals = await procs.run('close-refusals', [
        winPath(join(REPO, 'tests', 'wine', 'fixtures', 'close-refusals.mjs')),
        winPath(join(REPO, 'dist')),
        winPath(refusalsOut),
        winPath(dir),
        String(row.pid),
        String(row.processStartedAtMs),
        row.handle!,
        row.path,
        String(cwdRow.pid),
        String(cwdRow.processStartedAtMs),
        cwdRow.handle!,
        cwdRow.path,
      ]);
      expect(refusals.code, refusals.stderr).toBe(0);
      const r = JSON.parse(readFileSync(refusalsOut, 'utf8')) as Record<string, string>;
      expect(r.otherPath).toMatch(
        /^BadInputError: handle 0x[0-9a-f]+ of process \d+ now names .*locked\.txt, not .*locked\.txt\.other \(its value was reused\): nothing closed$/,
      );
      expect(r.otherStart).toMatch(/^BadInputError: process \d+ has already exited \(its pid now belongs to another process\)/);
      expect(r.itself).toMatch(/^BadInputError: holdwatch will not close a handle of process \d+: this is holdwatch itself$/);
      expect(r.notHandle).toMatch(/^BadInputError: "0x1a5" is not a handle value/);
      expect(r.cwd).toMatch(/^BadInputError: handle 0x[0-9a-f]+ is the current directory of process \d+/);
      expect(await remove(), 'every refusal left the handle open').toBe('EBUSY');

      const closed = await close('close-yes', ['--under', winPath(dir), '--yes']);
      expect([closed.code, closed.stderr]).toEqual([0, '']);
      expect(closed.stdout.trim()).toBe(`closed handle ${row.handle} of node.exe (PID ${closable.pid}): ${row.path}`);
      expect(closable.holder.child.exitCode, 'the holder lives on').toBeNull();
      expect(await remove()).toBe('removed');
      // The value is gone (or names something else now): a second close refuses.
      const again = await close('close-again', ['--under', winPath(dir), '--yes']);
      expect(again.code).toBe(2);
      expect(again.stderr.trim()).toMatch(/names no file under .*: nothing closed$/);
    }, 240_000);

    it('closes through the elevated scanner worker, which refuses a path other than the one seen as the host does', async () => {
      const { procs, scratch } = suite;
      const dir = join(scratch, 'watched-worker');
      mkdirSync(dir);
      const locked = join(dir, 'locked.txt');
      writeFileSync(locked, 'exclusive');
      const ready = join(scratch, 'worker-holder.ready');
      const holder = procs.start('worker-holder', [
        winPath(join(REPO, 'tests', 'wine', 'fixtures', 'holder.mjs')),
        winPath(ready),
        winPath(join(scratch, 'release')),
        `share0=${winPath(locked)}`,
      ]);
      const holderPid = (JSON.parse(await waitForFile(ready, holder.child, holder.logs.err)) as { pid: number }).pid;
      const outFile = join(scratch, 'close-via-worker.json');
      const run = await procs.run(
        'close-via-worker',
        [
          winPath(join(REPO, 'tests', 'wine', 'fixtures', 'close-via-worker.mjs')),
          winPath(join(REPO, 'dist')),
          bin,
          winPath(dir),
          winPath(locked),
          winPath(outFile),
        ],
        150_000,
      );
      expect(run.code, run.story).toBe(0);
      const out = JSON.parse(readFileSync(outFile, 'utf8')) as Record<string, string | number>;
      expect(out.error, String(out.error)).toBeUndefined();
      expect(out.holderPid).toBe(holderPid);
      expect(out.workerPid).not.toBe(holderPid);
      expect(out.refused).toMatch(/^BadInputError: handle 0x[0-9a-f]+ of process \d+ now names .*locked\.txt, not .*locked\.txt\.other/);
      expect([out.beforeClose, out.afterClose]).toEqual(['EBUSY', 'removed']);
      expect(holder.child.exitCode, 'the holder lives on').toBeNull();
    }, 200_000);
  });
}

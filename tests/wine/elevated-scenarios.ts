// "Scan as administrator" under Wine: Windows node.exe starts `holdwatch scan-worker` through
// ShellExecuteExW "runas" and scans through a named pipe (\\.\pipe\holdwatch-<random>).
// What Wine cannot show: there is no UAC, so runas starts the worker at once with no consent prompt,
// and every Wine process already runs as an administrator with no integrity levels, so nothing is
// ever denied and the worker sees no more than the host. A declined prompt (ERROR_CANCELLED) never
// happens here: its mapping has a unit test. Registered from wine.test.ts (one file per prefix).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holderKey } from '../../contract/identity.js';
import type { ScanResult } from '../../core/platform.js';
import { host, REPO, useWindowsScratch, waitForFile, winPath } from './wine-harness.js';

interface ElevatedScanOutput {
  structBytes: number;
  hostElevated: boolean;
  startMs: number;
  firstHeldMs: number;
  workerPid: number;
  workerElevated: boolean;
  viaWorker: ScanResult & { scans: number };
  inProcess: ScanResult & { scans: number };
  workerAliveAfterDispose: boolean;
  error?: string;
}

export function describeElevatedUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`Scan as administrator ${host.where}`, () => {
    const suite = useWindowsScratch('elevated');

    it('starts scan-worker through ShellExecuteExW "runas" and sees a Wine holder through the named pipe; the worker leaves when the pipe closes', async () => {
      const { procs, scratch } = suite;
      const dir = join(scratch, 'watched');
      mkdirSync(dir);
      writeFileSync(join(dir, 'held.txt'), 'x');
      const ready = join(scratch, 'holder.ready');
      const holder = procs.start('holder', [
        winPath(join(REPO, 'tests', 'wine', 'fixtures', 'holder.mjs')),
        winPath(ready),
        winPath(join(scratch, 'release')),
        `shared=${winPath(join(dir, 'held.txt'))}`,
      ]);
      const holderPid = (JSON.parse(await waitForFile(ready, holder.child, holder.logs.err)) as { pid: number }).pid;

      const outFile = join(scratch, 'elevated.json');
      const fixture = winPath(join(REPO, 'tests', 'wine', 'fixtures', 'elevated-scan.mjs'));
      const run = await procs.run(
        'elevated-scan',
        [fixture, winPath(join(REPO, 'dist')), winPath(join(REPO, 'bin', 'holdwatch.js')), winPath(dir), winPath(outFile)],
        150_000,
      );
      expect(run.code, run.story).toBe(0);
      const out = JSON.parse(readFileSync(outFile, 'utf8')) as ElevatedScanOutput;
      expect(out.error, out.error).toBeUndefined();
      expect(out.structBytes).toBe(112); // SHELLEXECUTEINFOW on x64
      console.log(
        `scan-worker under Wine: started and authenticated in ${out.startMs} ms; holder seen through the pipe after ${out.viaWorker.scans} scan(s), ${out.firstHeldMs} ms`,
      );

      expect(out.workerPid).toBeGreaterThan(0);
      expect(out.workerElevated).toBe(true); // Wine: every process is an administrator (IsUserAnAdmin)
      const held = out.viaWorker.holders.filter((h) => h.path === winPath(join(dir, 'held.txt')));
      expect(held.map((h) => [h.pid, h.kind, h.processName])).toEqual([[holderPid, 'file', 'node.exe']]);
      expect(out.viaWorker.holders.map(holderKey).sort()).toEqual(out.inProcess.holders.map(holderKey).sort());
      expect(out.workerAliveAfterDispose).toBe(false);
    }, 200_000);

    it('the worker writes nothing to a pipe served by another process (a squatter): not the token, not a byte to impersonate it by', async () => {
      const { procs, scratch } = suite;
      const pipe = `\\\\.\\pipe\\holdwatch-squatted-${process.pid}`;
      const ready = join(scratch, 'squatter.ready');
      const log = join(scratch, 'squatter.log');
      const squatter = procs.start('squatter', [winPath(join(REPO, 'tests', 'wine', 'fixtures', 'pipe-squatter.mjs')), pipe, winPath(ready), winPath(log)]);
      const squatterPid = (JSON.parse(await waitForFile(ready, squatter.child, squatter.logs.err)) as { pid: number }).pid;
      const worker = (name: string, hostPid: number) =>
        procs.run(
          name,
          [winPath(join(REPO, 'bin', 'holdwatch.js')), 'scan-worker', '--pipe', pipe, '--token', 'ab'.repeat(24), '--host-pid', String(hostPid)],
          60_000,
        );

      const refused = await worker('worker-refused', squatterPid + 4);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr.trim()).toBe(
        `holdwatch: scan-worker: the pipe is served by pid ${squatterPid}, not by holdwatch's host (pid ${squatterPid + 4}); refusing to connect`,
      );
      expect(readFileSync(log, 'utf8')).toBe('connected\n');

      // The control: told the squatter is its host, the same worker says hello (and leaves when the pipe closes).
      const trusting = await worker('worker-trusting', squatterPid);
      expect(trusting.code, trusting.stderr).toBe(0);
      expect(readFileSync(log, 'utf8')).toMatch(/^connected\nconnected\nreceived \d+ bytes: \{"type":"hello"/);
    }, 120_000);
  });
}

// holdwatch run from inside the watched dir, as the portable app runs from %TEMP% with TEMP watched:
// its executable, and its name worker's (the same one), are under the dir, yet neither is a holder;
// a process that really holds a file there still is. Registered from wine.test.ts (one file per prefix).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { host, REPO, useWindowsScratch, WindowsProcesses, winPath } from './wine-harness.js';

export function describeOwnProcessesUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`holdwatch's own processes ${host.where}`, () => {
    const suite = useWindowsScratch('own-processes');

    it('a scan by a node.exe inside the watched dir lists neither itself nor its name worker, only the real holder', async () => {
      const { procs, scratch, wine } = suite;
      const dir = join(scratch, 'temp');
      mkdirSync(join(dir, 'unpacked'), { recursive: true });
      const held = join(dir, 'held.txt');
      writeFileSync(held, 'x');
      const holderPid = await procs.startHolder('real-holder', [`shared=${winPath(held)}`]);
      const portableNode = join(dir, 'unpacked', 'node.exe');
      copyFileSync(wine.nodeExe, portableNode);
      const portable = new WindowsProcesses({ ...wine, nodeExe: portableNode }, scratch);
      const out = join(scratch, 'self-scan.json');
      const fixture = winPath(join(REPO, 'tests', 'wine', 'fixtures', 'self-scan.mjs'));
      const run = await portable.run('self-scan', [fixture, winPath(join(REPO, 'dist')), winPath(dir), winPath(out)]);
      expect(run.code, run.story).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8')) as { self: number; execPath: string; holders: { pid: number; kind: string; path: string }[] };
      expect(r.execPath.toLowerCase()).toBe(winPath(portableNode).toLowerCase()); // the scenario: holdwatch runs from the dir
      expect(r.holders).toEqual([{ pid: holderPid, kind: 'file', path: winPath(held) }]);
    }, 120_000);

    it("a system scan does not name holdwatch's own new handles (they are never holders), and still names a child's", async () => {
      const { procs, scratch } = suite;
      const dir = join(scratch, 'own-rows');
      mkdirSync(dir);
      const out = join(scratch, 'own-rows.json');
      const fixture = winPath(join(REPO, 'tests', 'wine', 'fixtures', 'own-rows-scan.mjs'));
      const run = await procs.run('own-rows-scan', [fixture, winPath(join(REPO, 'dist')), winPath(dir), winPath(scratch), winPath(out)]);
      expect(run.code, run.story).toBe(0);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ ownExamined: false, childExamined: true, childSeen: true });
    }, 120_000);
  });
}

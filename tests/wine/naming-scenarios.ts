// The name worker against real processes under Wine: what it answers for a process that is not the one
// the app saw, and for a name longer than its first buffer. Registered from wine.test.ts (one file per prefix).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { host, REPO, useWindowsScratch, winPath } from './wine-harness.js';

const fixture = (name: string) => winPath(join(REPO, 'tests', 'wine', 'fixtures', name));
const dist = winPath(join(REPO, 'dist'));

interface Answer {
  kind: string;
  answer?: { name: string | null; error?: { api: string; code: string | number } };
}

export function describeNamingUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`the name worker ${host.where}`, () => {
    const suite = useWindowsScratch('naming');

    it('a pid whose create time is not the one the app saw (reused since the table was read) gets no names, only an error', async () => {
      const { procs, scratch } = suite;
      const cwd = join(scratch, 'cwd-dir');
      mkdirSync(cwd);
      const pid = await suite.procs.startHolder('reuse-holder', [`cwd=${winPath(cwd)}`]);
      const out = join(scratch, 'reuse.json');
      const run = await procs.run('name-worker-reuse', [fixture('name-worker-reuse.mjs'), dist, String(pid), winPath(out)]);
      expect(run.code, run.story).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8')) as { asked: number; same: Answer[]; reused: Answer[] };
      expect(r.asked).toBeGreaterThan(0);
      // The control: with the create time the process list gives, its current directory is named.
      expect(r.same.some((a) => a.answer?.name?.toLowerCase().endsWith('\\cwd-dir'))).toBe(true);
      // One tick off: every handle value is taken for another process's, none is duplicated or named.
      expect(r.reused.map((a) => [a.answer?.name ?? null, a.answer?.error?.api])).toEqual(r.same.map(() => [null, 'OpenProcess']));
    }, 120_000);

    it('a name longer than the first buffer (STATUS_BUFFER_OVERFLOW) is asked again with room for it, not dropped', async () => {
      const { procs, scratch } = suite;
      const held = join(scratch, 'a-name-longer-than-four-wchars.txt');
      writeFileSync(held, 'x');
      const pid = await suite.procs.startHolder('long-name-holder', [`shared=${winPath(held)}`]);
      const out = join(scratch, 'small-buffer.json');
      const run = await procs.run('small-buffer-names', [fixture('small-buffer-names.mjs'), dist, String(pid), winPath(out)]);
      expect(run.code, run.story).toBe(0);
      const r = JSON.parse(readFileSync(out, 'utf8')) as { shipped: { name?: string | null }[]; small: { name?: string | null; error?: string }[] };
      expect(r.shipped.some((a) => a.name?.toLowerCase().endsWith('\\a-name-longer-than-four-wchars.txt'))).toBe(true);
      expect(r.small).toEqual(r.shipped);
    }, 120_000);

    it("each answer carries the rights of the copy the worker duplicated: the table row's, so the cache can tell a value that changed hands", async () => {
      const { procs, scratch } = suite;
      const exclusive = join(scratch, 'rights-exclusive.lock');
      const shared = join(scratch, 'rights-shared.txt');
      writeFileSync(exclusive, 'x');
      writeFileSync(shared, 'x');
      const pid = await suite.procs.startHolder('rights-holder', [`share0=${winPath(exclusive)}`, `shared=${winPath(shared)}`]);
      const out = join(scratch, 'rights.json');
      const run = await procs.run('worker-access', [fixture('worker-access.mjs'), dist, String(pid), winPath(out)]);
      expect(run.code, run.story).toBe(0);
      const rows = JSON.parse(readFileSync(out, 'utf8')) as { row: number; answered: number | null; name: string | null }[];
      const held = (leaf: string) => rows.find((r) => r.name?.toLowerCase().endsWith(`\\${leaf}`));
      // Read-write and read-only opens: two different masks, each answered as its row gives it.
      expect(held('rights-exclusive.lock')?.answered).toBe(held('rights-exclusive.lock')?.row);
      expect(held('rights-shared.txt')?.answered).toBe(held('rights-shared.txt')?.row);
      expect(held('rights-exclusive.lock')?.row).not.toBe(held('rights-shared.txt')?.row);
      expect(rows.filter((r) => r.name !== null && r.answered !== r.row)).toEqual([]);
    }, 120_000);
  });
}

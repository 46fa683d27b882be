// Images mapped for their resources under Wine: LoadLibraryExW(LOAD_LIBRARY_AS_IMAGE_RESOURCE) maps a
// DLL as an image that no module list names, and the view keeps the file from being deleted. The scan
// must list it (as a mapped view) beside a DLL loaded as a module, each once. Registered from
// wine.test.ts (one file per prefix).
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../contract/holders.js';
import { host, REPO, useWindowsScratch, winPath } from './wine-harness.js';

export function describeImageViewsUnderWine(haveWine: boolean): void {
  describe.skipIf(!haveWine)(`images mapped as resources ${host.where}`, () => {
    const suite = useWindowsScratch('image-views');

    it('a DLL loaded as an image resource is held (its delete fails) and listed once as a mapped view; a loaded module stays a module', async () => {
      const { procs, scratch, wine } = suite;
      const dir = join(scratch, 'watched');
      mkdirSync(dir);
      const [resource, module] = [join(dir, 'resources.dll'), join(dir, 'addon.node')];
      copyFileSync(wine.koffiBinary, resource);
      copyFileSync(wine.koffiBinary, module);
      const pid = await procs.startHolder('resource-holder', [`resource=${winPath(resource)}`, `module=${winPath(module)}`]);

      const rm = join(scratch, 'rm.cjs');
      writeFileSync(rm, `try { require('fs').unlinkSync(process.argv[2]); console.log('removed'); } catch (e) { console.log(e.code); }`);
      const removal = await procs.run('rm-resource', [winPath(rm), winPath(resource)]);
      expect(['EPERM', 'EBUSY']).toContain(removal.stdout.trim()); // the view holds it, as on Windows

      const scan = await procs.run('scan', [winPath(join(REPO, 'bin', 'holdwatch.js')), 'scan', winPath(dir), '--json']);
      expect(scan.code, scan.stderr).toBe(0);
      const holders = (JSON.parse(scan.stdout) as Snapshot).holders.filter((h) => h.pid === pid);
      expect(holders.map((h) => [h.kind, h.path]).sort()).toEqual([
        ['mmap', winPath(resource)],
        ['module', winPath(module)],
      ]);
    }, 120_000);
  });
}

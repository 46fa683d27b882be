// The UI server's static files stay inside the renderer dir whatever links a local user plants in it
// (reliability-2.md F11: a symlink inside the renderer dir was followed out of it): real files and
// real links in a temp dir, read through the server's own reader. The path spelling cases are
// host/web/static-files.test.ts's.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStaticFile } from '../../host/web/static-files.js';

describe.skipIf(process.platform === 'win32')('readStaticFile', () => {
  it('serves a file under the renderer, a link that stays inside, and not a link that leads out', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'hw-static-'));
    try {
      const root = join(scratch, 'renderer');
      mkdirSync(join(root, 'assets'), { recursive: true });
      writeFileSync(join(root, 'index.html'), '<!doctype html>');
      writeFileSync(join(scratch, 'secret.txt'), 'outside');
      symlinkSync(join(scratch, 'secret.txt'), join(root, 'adv-link.txt'));
      symlinkSync(scratch, join(root, 'assets', 'up'));
      symlinkSync(join(root, 'index.html'), join(root, 'inside.html'));
      expect((await readStaticFile(root, '/'))?.body.toString()).toBe('<!doctype html>');
      expect((await readStaticFile(root, '/inside.html'))?.body.toString()).toBe('<!doctype html>');
      expect(await readStaticFile(root, '/adv-link.txt')).toBeNull();
      expect(await readStaticFile(root, '/assets/up/secret.txt')).toBeNull();
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

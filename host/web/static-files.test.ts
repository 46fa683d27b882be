import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStaticFile, staticPathOf } from './static-files.js';

const ROOT = '/srv/holdwatch/dist/renderer';

describe('staticPathOf', () => {
  it('names the files under the renderer, index.html for /', () => {
    expect(staticPathOf(ROOT, '/')).toBe(join(ROOT, 'index.html'));
    expect(staticPathOf(ROOT, '/assets/index-1a2b.js')).toBe(join(ROOT, 'assets/index-1a2b.js'));
    expect(staticPathOf(ROOT, '/a%20b.css')).toBe(join(ROOT, 'a b.css'));
  });

  it('names nothing outside it, however the way out is spelled', () => {
    for (const path of ['/../secret', '/%2e%2e/secret', '/assets/../../secret', '/..%2fsecret', '//etc/passwd/../../../x']) {
      expect(staticPathOf(ROOT, path), path).toBeNull();
    }
    expect(staticPathOf(ROOT, '/../renderer-other/x')).toBeNull();
  });
});

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

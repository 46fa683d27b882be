import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticPathOf } from './static-files.js';

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

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDirToOpen } from './dir-to-open.js';

const scratch = mkdtempSync(join(tmpdir(), 'hw-dir-to-open-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('checkDirToOpen', () => {
  it('takes a real directory as it is', () => {
    mkdirSync(join(scratch, 'folder with spaces'));
    expect(checkDirToOpen(join(scratch, 'folder with spaces'))).toEqual({ dir: join(scratch, 'folder with spaces') });
  });

  it('says in one line why a missing path, a file or a path through a file cannot be watched', () => {
    writeFileSync(join(scratch, 'a.log'), 'x');
    const problems = [join(scratch, 'missing'), join(scratch, 'a.log'), join(scratch, 'a.log', 'below'), `${scratch}\0x`].map(checkDirToOpen);
    expect(problems).toEqual([
      { problem: `no such directory: ${join(scratch, 'missing')}` },
      { problem: expect.stringMatching(/^not a directory: .*a\.log \(holdwatch watches folders/) },
      { problem: `not a directory: ${join(scratch, 'a.log', 'below')}` },
      { problem: 'the directory path contains a NUL byte' },
    ]);
    for (const p of problems) expect('problem' in p && p.problem).not.toMatch(/\n/);
  });
});

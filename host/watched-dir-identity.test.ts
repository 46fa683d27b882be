// The watched dir checked before each poll: real dirs renamed, deleted and swapped for a link.
import { mkdirSync, mkdtempSync, renameSync, rmdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WatchDir } from '../core/platform.js';
import { watchedDirsGuard } from './watched-dir-identity.js';

const scratch = mkdtempSync(join(tmpdir(), 'hw-dir-identity-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const watchDir = (path: string) => ({ display: path }) as WatchDir;

describe('watchedDirsGuard', () => {
  it('says deleted only when the dir is still missing at the next check', async () => {
    const dir = join(scratch, 'deleted');
    mkdirSync(dir);
    const check = watchedDirsGuard([watchDir(dir)]);
    rmdirSync(dir);
    await expect(check()).resolves.toBeUndefined();
    await expect(check()).rejects.toThrow(`the watched directory ${dir} was deleted`);
  });

  it('names a swap a swap, though a check lands between the rename and the link', async () => {
    const dir = join(scratch, 'swapped');
    mkdirSync(dir);
    mkdirSync(join(scratch, 'other'));
    const check = watchedDirsGuard([watchDir(dir)]);
    renameSync(dir, join(scratch, 'swapped-away'));
    await expect(check()).resolves.toBeUndefined();
    symlinkSync(join(scratch, 'other'), dir);
    await expect(check()).rejects.toThrow(`the watched directory ${dir} was replaced by a symbolic link`);
  });

  it('forgets a moment without a name when the dir is back', async () => {
    const dir = join(scratch, 'back');
    mkdirSync(dir);
    const check = watchedDirsGuard([watchDir(dir)]);
    renameSync(dir, join(scratch, 'back-away'));
    await expect(check()).resolves.toBeUndefined();
    renameSync(join(scratch, 'back-away'), dir);
    await expect(check()).resolves.toBeUndefined();
    await expect(check()).resolves.toBeUndefined();
  });
});

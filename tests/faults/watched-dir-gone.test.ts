// `watch` when its dir goes away under it (reliability-2.md F11): deleted, it ran on silently showing
// nothing; swapped for a symlink, it watched the link's target under the old name. Now it stops with
// one line saying which, exit 2.
import { mkdirSync, mkdtempSync, renameSync, rmSync, rmdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-dir-gone-'));
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Starts `holdwatch watch dir`, changes the dir once it watches, and resolves with its exit code and stderr. */
async function watchThen(dir: string, change: () => void): Promise<{ code: number | null; stderr: string }> {
  const watch = startCli(['watch', dir, '--interval', '100']);
  const exited = new Promise<number | null>((resolve) => watch.child.on('exit', (code) => resolve(code)));
  let stderr = '';
  watch.child.stderr.on('data', (d: Buffer) => (stderr += d));
  try {
    await watch.waitForStderrLine((line) => line.includes('Ctrl-C to stop'));
    change();
    await watch.waitForStderrLine((line) => line.includes('the watched directory'));
    return { code: await exited, stderr };
  } finally {
    watch.child.kill('SIGKILL');
  }
}

describe('watch whose dir goes away', () => {
  it('stops with one line when the dir is deleted', async () => {
    const dir = join(scratch, 'deleted');
    mkdirSync(dir);
    const { code, stderr } = await watchThen(dir, () => rmdirSync(dir));
    expect(code).toBe(2);
    expect(stderr).toMatch(/^holdwatch: the watched directory \S+deleted was deleted$/m);
  });

  it('stops with one line when the dir is swapped for a symlink to another', async () => {
    const dir = join(scratch, 'swapped');
    const other = join(scratch, 'other');
    mkdirSync(dir);
    mkdirSync(other);
    const { code, stderr } = await watchThen(dir, () => {
      renameSync(dir, join(scratch, 'swapped-away'));
      symlinkSync(other, dir);
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^holdwatch: the watched directory \S+swapped was replaced by a symbolic link$/m);
  });
});

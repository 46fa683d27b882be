// `watch` when its dir goes away under it (reliability-2.md F11): deleted, it ran on silently showing
// nothing; swapped for a symlink, it watched the link's target under the old name. Now it stops with
// one line saying which, exit 2; or, asked to (--follow-dir), says so in one line and watches what
// the name points to now.
import { mkdirSync, mkdtempSync, renameSync, rmSync, rmdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-dir-gone-'));
});

afterAll(async () => {
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

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

  it("with --follow-dir, says so in one line and watches the link's target: its holders come, the old ones go", async () => {
    const dir = join(scratch, 'followed');
    const target = join(scratch, 'target');
    mkdirSync(dir);
    mkdirSync(target);
    const before = await pythonHoldingFile(join(dir, 'before.log'));
    const after = await pythonHoldingFile(join(target, 'after.log'));
    const watch = startCli(['watch', dir, '--json', '--interval', '100', '--follow-dir']);
    let exitCode: number | null | undefined;
    watch.child.on('exit', (code) => (exitCode = code));
    try {
      await watch.waitForLine((line) => line.includes(`"pid":${before.pid},`));
      renameSync(dir, join(scratch, 'followed-away'));
      symlinkSync(target, dir);
      const said = await watch.waitForStderrLine((line) => line.includes('the watched directory'));
      expect(said).toBe(`holdwatch: the watched directory ${dir} was replaced by a symbolic link; watching what it names now: ${target}`);
      const events = [
        JSON.parse(await watch.waitForLine((line) => line.includes('"gone"') && line.includes(`"pid":${before.pid},`))),
        JSON.parse(await watch.waitForLine((line) => line.includes('"appeared"') && line.includes(`"pid":${after.pid},`))),
      ] as { type: string; holder: { path: string } }[];
      expect(events.map((e) => [e.type, e.holder.path])).toEqual([
        ['gone', join(dir, 'before.log')],
        ['appeared', join(target, 'after.log')],
      ]);
      expect(exitCode).toBeUndefined();
    } finally {
      watch.child.kill('SIGKILL');
    }
  });
});

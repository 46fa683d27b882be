// A one-shot scan or run keeps V8's compile cache in the data dir (host/compile-cache.ts), and only
// there: not when the data dir lies under the scanned dir or a dir the run watches (holdwatch writes nothing under it), not in a data dir
// other users can write, and not for the long-lived commands.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-compile-cache-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Every file under `dir`, relative, sorted; [] when it does not exist. */
function filesUnder(dir: string): string[] {
  return existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]).sort() : [];
}

describe('the compile cache', () => {
  it('a scan writes it in the data dir, 0700, and a second scan prints the same', async () => {
    const data = join(scratch, 'data');
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const first = await runCli(['scan', watched, '--json'], { env: { HOLDWATCH_DATA_DIR: data } });
    const second = await runCli(['scan', watched], { env: { HOLDWATCH_DATA_DIR: data } });
    expect([first.code, first.stderr, second.code]).toEqual([0, '', 0]);
    expect(second.stdout.startsWith(`Nothing holds ${watched}\n`)).toBe(true); // (and a line of denied processes on a busy machine)
    expect(filesUnder(join(data, 'compile-cache')).length).toBeGreaterThan(1);
    expect(statSync(join(data, 'compile-cache')).mode & 0o777).toBe(0o700);
    expect(readdirSync(data)).toEqual(['compile-cache']);
  });

  it('a scan of a dir that holds the data dir, even through a link, writes nothing there', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    symlinkSync(watched, join(scratch, 'link'));
    for (const dir of [watched, join(scratch, 'link')]) {
      const result = await runCli(['scan', dir, '--json'], { env: { HOLDWATCH_DATA_DIR: join(watched, 'data') } });
      expect(result.code).toBe(0);
    }
    expect(filesUnder(watched)).toEqual([]);
  });

  it('a run writes it in the data dir', async () => {
    const data = join(scratch, 'data');
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const result = await runCli(['run', '--quiet', '--watch', watched, '--', process.execPath, '-e', '0'], { env: { HOLDWATCH_DATA_DIR: data } });
    expect(result.code).toBe(0);
    expect(filesUnder(join(data, 'compile-cache')).length).toBeGreaterThan(1);
  });

  it('a run that watches the data dir, in either spelling of --watch, writes nothing there', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    for (const watch of [['--watch', watched], [`--watch=${watched}`]]) {
      // Refused (the runs would lie in the watched dir): the cache must not have been made first.
      const result = await runCli(['run', ...watch, '--', process.execPath, '-e', '0'], { env: { HOLDWATCH_DATA_DIR: join(watched, 'data') } });
      expect(result.code).toBe(2);
    }
    expect(filesUnder(watched)).toEqual([]);
  });

  it('is not kept in a data dir every user can write, nor by watch', async () => {
    const open = join(scratch, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const scan = await runCli(['scan', watched, '--json'], { env: { HOLDWATCH_DATA_DIR: join(open, 'data') } });
    expect(scan.code).toBe(0);
    expect(filesUnder(join(open, 'data', 'compile-cache'))).toEqual([]);
    const bad = await runCli(['watch', join(scratch, 'missing')], { env: { HOLDWATCH_DATA_DIR: join(scratch, 'watch-data') } });
    expect(bad.code).toBe(2);
    expect(existsSync(join(scratch, 'watch-data'))).toBe(false);
  });
});

// holdwatch as a library (index.ts, package.json "exports"): the package imported by its name, as a
// user's code imports it, loads no Electron; scan, watch and run work on real processes holding files.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Library from '../../index.js';
import { REPO_ROOT } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';

const holdwatch = (await import(`${REPO_ROOT}dist/index.js`)) as typeof Library;
const REGISTER = join(REPO_ROOT, 'tests/fixtures/module-log/register.mjs');

let scratch: string;
let watched: string;
beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hw-library-')));
  watched = join(scratch, 'watched');
  mkdirSync(watched);
});
afterAll(async () => {
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

describe("import 'holdwatch'", () => {
  it('resolves to the library entry by the package name and loads no Electron and no UI', () => {
    const log = join(scratch, 'modules.log');
    writeFileSync(log, '');
    const script = "const h = await import('holdwatch'); console.log(Object.keys(h).sort().join(' '));";
    // From inside the package, its own name resolves through "exports" (self-reference), as it does for a dependent.
    const out = execFileSync(process.execPath, ['--import', REGISTER, '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      env: { ...process.env, HOLDWATCH_MODULE_LOG: log },
      encoding: 'utf8',
    });
    expect(out.trim().split(' ')).toEqual(expect.arrayContaining(['run', 'scan', 'watch', 'BadInputError']));
    const modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(modules).toContain(`file://${REPO_ROOT}dist/index.js`);
    expect(modules.filter((url) => /\/node_modules\/electron\/|\/dist\/electron\/|\/dist\/host\/web\/|\/dist\/renderer\//.test(url))).toEqual([]);
  });
});

describe('scan, watch and run', () => {
  it('scan names a process holding a file under the dir', async () => {
    const holder = await pythonHoldingFile(join(watched, 'scanned.txt'));
    const snapshot = await holdwatch.scan(watched);
    expect(snapshot.holders).toContainEqual(expect.objectContaining({ pid: holder.pid, kind: 'file', path: join(watched, 'scanned.txt') }));
    await expect(holdwatch.scan(join(scratch, 'missing'))).rejects.toBeInstanceOf(holdwatch.BadInputError);
  });

  it('watch reports the holder appearing and going, and stop() releases it', async () => {
    const events: Library.WatchEvent[] = [];
    const watch = await holdwatch.watch(watched, { intervalMs: 50, onEvent: (e) => events.push(e) });
    try {
      const holder = await pythonHoldingFile(join(watched, 'watched.txt'));
      await expect.poll(() => events.some((e) => e.type === 'appeared' && e.holder.pid === holder.pid), { timeout: 10_000 }).toBe(true);
      holder.send('close');
      await expect.poll(() => events.some((e) => e.type === 'gone' && e.holder.pid === holder.pid), { timeout: 10_000 }).toBe(true);
    } finally {
      await watch.stop();
    }
    await watch.stop(); // idempotent
  });

  it('run supervises a command that holds a file, and resolves with its record and journal', async () => {
    const dataDir = join(scratch, 'data');
    const output: string[] = [];
    const script = 'import sys, time\nf = open(sys.argv[1], "w")\nprint("holding", flush=True)\ntime.sleep(1)';
    const result = await holdwatch.run(['python3', '-c', script, join(watched, 'run.txt')], {
      watch: watched,
      dataDir,
      onOutput: (_, chunk) => output.push(chunk.toString()),
    });
    expect(result.exitCode).toBe(0);
    expect(output.join('')).toBe('holding\n');
    expect(result.record.holders).toContainEqual(expect.objectContaining({ path: join(watched, 'run.txt'), kind: 'file' }));
    expect(result.journalPath.startsWith(join(dataDir, 'runs'))).toBe(true);
    expect(existsSync(result.journalPath)).toBe(true);
  });
});

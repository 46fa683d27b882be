// `holdwatch ui --watch <dir>`: the page opens straight onto watching the directory, as the desktop app
// does with its argument, and the Electron smoke test's check (tests/smoke/holder-check.mjs) passes here
// against the same renderer: a real node child holding a file appears with its process name.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectHolderShown, startHeldDir, type HeldDir } from '../smoke/holder-check.mjs';
import { runCli } from '../support/cli.js';
import { openApp, openChromium, screenshot, startUi, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let browser: Browser;
let held: HeldDir;
const hosts: RunningUi[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-open-dir-'));
  mkdirSync(join(scratch, 'data'));
  held = await startHeldDir();
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  const codes = await Promise.all(hosts.map((h) => h.stop()));
  await held?.stop();
  rmSync(scratch, { recursive: true, force: true });
  expect(codes.every((c) => c === 0)).toBe(true);
}, 30_000);

const startOn = async (args: string[]) => {
  const ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') }, { args });
  hosts.push(ui);
  return ui;
};

describe('holdwatch ui --watch <dir>', () => {
  it('opens straight onto watching the dir, and the smoke check sees the node child holding a file in it', async () => {
    const ui = await startOn(['--watch', held.dir]);
    const { page } = browser;
    await openApp(page, ui);
    const seen = await expectHolderShown(page, held);
    expect(seen).toBe(`watched ${held.dir} and showed node (PID ${held.pid}) holding held-by-smoke.txt`);
    await expect(page.locator('#dir').count()).resolves.toBe(0); // no start screen: nothing was typed
    await screenshot(page, '30-opened-on-watch-dir');
  }, 60_000);

  it('the smoke check fails, saying what the window showed, when the app opened on the start screen', async () => {
    const ui = await startOn([]);
    const { page } = browser;
    await openApp(page, ui);
    await page.locator('#dir').waitFor();
    await expect(expectHolderShown(page, held, 1500)).rejects.toThrow(
      /did not open onto watching .*the window showed: ".*Which process holds this directory\?/,
    );
  }, 60_000);

  it('refuses a missing dir or a file in one line, exit 2, before serving anything', async () => {
    writeFileSync(join(scratch, 'a-file.txt'), 'x');
    const missing = await runCli(['ui', '--no-open', '--watch', join(scratch, 'missing')]);
    const file = await runCli(['ui', '--no-open', '--watch', 'a-file.txt'], { cwd: scratch });
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([2, '', `holdwatch: no such directory: ${join(scratch, 'missing')}\n`]);
    // A relative path is resolved against the working directory, and said in full.
    expect([file.code, file.stdout]).toEqual([2, '']);
    expect(file.stderr).toMatch(new RegExp(`^holdwatch: not a directory: ${join(scratch, 'a-file.txt')} \\(holdwatch watches folders[^\\n]*\\n$`));
  }, 30_000);
});

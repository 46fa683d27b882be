// "Scan as administrator" in a real browser, driven where Linux can drive it meaningfully: the host
// runs as the unprivileged user `nobody`, so root's processes really are denied. `holdwatch ui` gives
// the next step as text (`sudo holdwatch ui`), no button; a test host that injects a same-rights
// scanner worker (tests/fixtures/ui-host/same-rights-ui.mjs) offers the button, which starts the real
// scanner worker with nobody's own rights (Linux has no elevation prompt; the Windows launch is tested
// under Wine), and the watch keeps its holder across the switch.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { openApp, openChromium, screenshot, startUi, waitForLive, type Browser, type RunningUi } from './ui-support.js';

const SAME_RIGHTS_UI = join(REPO_ROOT, 'tests/fixtures/ui-host/same-rights-ui.mjs');

const NOBODY = 65534;
const NOGROUP = 65534;
let scratch: string;
let browser: Browser;
const uis: RunningUi[] = [];
const holders: ChildProcess[] = [];

beforeAll(async () => {
  // The worker is spawned as `nobody` from process.execPath: a Node under /root (mode 700) cannot be.
  if (process.geteuid?.() === 0) {
    const run = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', '/bin/sh', '-c', 'test -x "$0"', process.execPath]);
    if (run.status !== 0)
      throw new Error(`the user nobody cannot execute ${process.execPath}: install Node where every user can run it (.ci/run uses /opt/holdwatch-node)`);
  }
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-elevate-'));
  chmodSync(scratch, 0o755);
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const holder of holders) holder.kill('SIGKILL');
  const codes = await Promise.all(uis.map((ui) => ui.stop()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  expect(codes.every((code) => code === 0)).toBe(true);
}, 30_000);

/** A dir and a data dir `nobody` can use: the data dir its own, which no other user can write (private-files.ts). */
function nobodyDirs(name: string): { watched: string; data: string } {
  const watched = join(scratch, name, 'watched');
  const data = join(scratch, name, 'data');
  mkdirSync(watched, { recursive: true });
  mkdirSync(data);
  chmodSync(join(scratch, name), 0o755);
  chmodSync(watched, 0o777);
  chmodSync(data, 0o700);
  chownSync(data, NOBODY, NOGROUP);
  return { watched, data };
}

/** python3 as `nobody` holding `path` open until killed; resolves with its pid once it holds. */
function nobodyHolding(path: string): Promise<number> {
  const child = spawn(
    'setpriv',
    [
      '--reuid=nobody',
      '--regid=nogroup',
      '--clear-groups',
      '/usr/bin/python3',
      '-c',
      'import sys, time\nf = open(sys.argv[1], "a")\nprint("ready", flush=True)\ntime.sleep(600)',
      path,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  holders.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => String(d).includes('ready') && resolve(child.pid!));
    child.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
}

async function watchAs(ui: RunningUi, dir: string) {
  const { page } = browser;
  await openApp(page, ui);
  await page.fill('#dir', dir);
  await page.click('button[type=submit]');
  await waitForLive(page, ui, /processes? not inspectable/);
  return page;
}

describe.skipIf(process.geteuid?.() !== 0)('Scan as administrator, as the user nobody', () => {
  it('without a way to elevate: the denied count and the next step as text, no button', async () => {
    const { watched, data } = nobodyDirs('hint');
    const ui = await startUi({ HOLDWATCH_DATA_DIR: data }, { asUser: 'nobody' });
    uis.push(ui);
    const page = await watchAs(ui, watched);
    await expect(page.getByTestId('scanner-hint').textContent()).resolves.toContain('Run `sudo holdwatch ui` to see them.');
    expect(await page.getByTestId('elevate').count()).toBe(0);
    await screenshot(page, 'elevate-01-linux-hint');
  }, 60_000);

  it('with a same-rights worker injected: the button starts the real scanner worker, progress shows, the holder stays', async () => {
    const { watched, data } = nobodyDirs('worker');
    writeFileSync(join(watched, 'held.txt'), 'x');
    chmodSync(join(watched, 'held.txt'), 0o666);
    const ui = await startUi({ HOLDWATCH_DATA_DIR: data }, { asUser: 'nobody', host: SAME_RIGHTS_UI });
    uis.push(ui);
    const pid = await nobodyHolding(join(watched, 'held.txt'));
    const page = await watchAs(ui, watched);
    const row = page.locator(`[role=row][data-pid="${pid}"]`);
    await row.waitFor({ timeout: 15_000 });
    const button = page.getByTestId('elevate');
    await expect(button.textContent()).resolves.toBe('Scan as administrator');
    await screenshot(page, 'elevate-02-button');
    // The progress lasts as long as the worker's start (half a second idle, less on a fast Node): a
    // wait for it to be visible races that start, so an observer set before the click records it.
    await page.evaluate(`(() => {
      const seen = (window.startingSeen = []);
      new MutationObserver(() => {
        const progress = document.querySelector('[data-testid=scanner-starting]');
        if (progress && !seen.length) seen.push(progress.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);
    await button.click();
    if (await page.getByTestId('scanner-starting').isVisible()) await screenshot(page, 'elevate-03-starting');
    // The worker's start either lands (the mode line) or fails with a sentence: the sentence is the
    // failure to report, not a 30 s wait for a mode line that will not come.
    await page.locator('[data-testid=scanner-mode], [data-testid=scanner-message]:has-text("could not start")').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('scanner-message').textContent()).not.toContain('could not start');
    const startingSeen = await page.evaluate<string[]>('window.startingSeen');
    expect(startingSeen).toEqual([expect.stringContaining('Starting the elevated scanner')]);
    await expect(page.getByTestId('scanner-mode').textContent()).resolves.toContain('scanning in a separate worker (not elevated)');
    await expect(page.getByTestId('scanner-message').textContent()).resolves.toContain('without administrator rights');
    // A few polls later, through the worker: the holder row is still there, and still live.
    await page.waitForTimeout(1500);
    await row.waitFor();
    expect(await page.getByTestId('elevate').count()).toBe(0);
    await screenshot(page, 'elevate-04-worker');
  }, 90_000);
});

// "Close handle…" in a real browser against `holdwatch ui`. On this Linux host the real session
// refuses, and the panel says why instead of offering a button (a real python3 holder). On a Windows
// host (the DEMO backend with a C:\ dir: the real close is tested under Wine, tests/wine/close-scenarios.ts)
// the button asks first, saying what may break; Cancel closes nothing; confirming closes it and its row goes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAllHolders } from '../support/holders.js';
import { openApp, openChromium, screenshot, selectPythonHolder, startUi, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let browser: Browser;
let ui: RunningUi;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-close-'));
  mkdirSync(join(scratch, 'data'));
  browser = await openChromium();
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await killAllHolders();
  const code = await ui?.stop();
  rmSync(scratch, { recursive: true, force: true });
  expect(code).toBe(0);
}, 30_000);

describe('close one handle from the details panel', () => {
  it('on Linux: no button, the reason instead (ptrace), for a real holder', async () => {
    const { details, page } = await selectPythonHolder(browser.page, ui, join(scratch, 'watched'));
    const refusal = details.getByTestId('close-handle-refusal');
    await refusal.waitFor({ timeout: 15_000 });
    await expect(refusal.textContent()).resolves.toMatch(
      /^holdwatch will not close its handle: closing a handle of another process is not offered on Linux: it needs ptrace/,
    );
    await expect(details.getByRole('button', { name: 'Close handle…' }).count()).resolves.toBe(0);
    await refusal.scrollIntoViewIfNeeded();
    await screenshot(page, 'close-01-linux-not-offered');
  }, 60_000);

  it('on a Windows host: asks first, saying what may break; Cancel closes nothing; confirmed, the handle is closed and its row goes', async () => {
    const { page } = browser;
    await openApp(page, ui, 'demo=4');
    await page.fill('#dir', 'C:\\demo');
    await page.click('button[type=submit]');
    const row = page.locator('[role=row][data-pid="10000"]');
    await row.click();
    const details = page.getByTestId('details');
    const button = details.getByRole('button', { name: 'Close handle…' });
    await button.click();
    const dialog = details.getByRole('alertdialog', { name: 'Confirm closing the handle' });
    await dialog.waitFor();
    const question = await dialog.textContent();
    expect(question).toMatch(/^Close handle 0x40 of python3 \(PID 10000\) on C:\\demo\/demo\/shard-0\/file-0\.dat\?/);
    expect(question).toMatch(/may crash, or lose or corrupt data, the next time it uses that handle/);
    await dialog.scrollIntoViewIfNeeded();
    await screenshot(page, 'close-02-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.count()).resolves.toBe(0);
    await expect(row.count()).resolves.toBe(1);

    await button.click();
    await dialog.getByRole('button', { name: 'Close handle', exact: true }).click();
    await details.getByText('Closed handle 0x40 of python3 (PID 10000); C:\\demo/demo/shard-0/file-0.dat is no longer held by it.').waitFor();
    // The process lives on; only the handle went.
    await details.getByTestId('no-longer-held').getByText('no longer holds it').waitFor();
    await screenshot(page, 'close-03-closed');
  }, 60_000);
});

// The details panel in a real browser against `holdwatch ui`, with a real holder: a python3 that runs
// in the watched dir, writes one file, reads another and has a child. The panel shows its cwd, its
// child, and each handle's access; the screenshot is looked at, not only asserted on.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAllHolders, pythonHoldingForDetails } from '../support/holders.js';
import { openChromium, screenshot, startUi, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let ui: RunningUi;
let browser: Browser;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hw-ui-details-')));
  mkdirSync(join(scratch, 'data'));
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await killAllHolders();
  const code = await ui?.stop();
  rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  expect(code).toBe(0);
}, 30_000);

describe('the details panel in Chromium', () => {
  it('shows a real holder’s cwd, child, handle count and each handle’s access', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const { page } = browser;
    await page.goto(ui.url);
    await page.fill('#dir', watched);
    await page.click('button[type=submit]');
    await page.getByTestId('watch-live').waitFor();

    const holder = await pythonHoldingForDetails(watched, { ...process.env, HOLDWATCH_RUN: 'tag-from-ui-test' });
    const row = page.locator(`[role=row][data-pid="${holder.pid}"]`).filter({ hasText: 'written.log' });
    await row.waitFor();
    await row.click();
    const details = page.getByTestId('details');
    await details.getByTestId('process-facts').waitFor();
    await expect(details.getByTestId('cwd').textContent()).resolves.toBe(watched);
    await details.getByText('tag-from-ui-test').waitFor();
    await details.getByTestId('children').getByText('python3').waitFor();
    const holdings = details.getByTestId('holdings');
    await expect(holdings.locator('tr', { hasText: 'written.log' }).textContent()).resolves.toMatch(/write.*FLOCK ADVISORY WRITE/);
    await expect(holdings.locator('tr', { hasText: 'read.txt' }).textContent()).resolves.toContain('read');
    await details.getByText(/Share: Linux has no share modes/).waitFor();
    await screenshot(page, '10-details-access-children');
  }, 60_000);
});

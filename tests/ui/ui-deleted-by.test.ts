// A holder whose path the run deleted while it held it (blocked-cleanup by deleted-while-held): its
// details name the delete, the call and its line, and whose it was (a parent's that met its child's
// working directory, tests/fixtures/child-held), beside the open: the user reads why the verdict says
// Windows fails there without opening the report. Screenshots go to test-artifacts/ui/.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { lineOf } from '../probes/stack-support.js';
import { openApp, openChromium, screenshot, startUi, waitForLive, type Browser, type RunningUi } from './ui-support.js';

const FIXTURE = join(REPO_ROOT, 'tests', 'fixtures', 'child-held', 'cwd.test.mjs');

let scratch: string;
let ui: RunningUi;
let browser: Browser;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-deleted-by-'));
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  rmSync(scratch, { recursive: true, force: true, maxRetries: 40, retryDelay: 250 });
}, 30_000);

describe('details of a holder the run deleted under', () => {
  it("name the parent's delete, its line and its process, beside the verdict", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    const watched = mkdtempSync(join(scratch, 'watched-'));
    await openApp(page, ui);
    await page.fill('#dir', watched);
    await page.getByText('Run a test command under holdwatch (optional)').click();
    await page.fill('#command', `env WORK=${watched} ${process.execPath} --test ${FIXTURE}`);
    await page.fill('#cwd', scratch);
    await page.click('button[type=submit]');
    await waitForLive(page, ui);
    await page
      .getByTestId('run-status')
      .getByText(/Ended, exit code 0/)
      .waitFor({ timeout: 60_000 });

    await page.getByRole('row').filter({ hasText: 'child-cwd' }).first().click();
    const details = page.getByTestId('details');
    const removal = lineOf(readFileSync(FIXTURE, 'utf8'), 'the removal under the child');
    await expect(details.getByTestId('deleted-by').textContent()).resolves.toMatch(
      new RegExp(`^fs\\.rmSync at .*cwd\\.test\\.mjs:${removal}, in its parent PID \\d+, while this process held it · on Windows`),
    );
    await expect(details.getByText('Deleted by fs.rmSync (PID', { exact: false }).count()).resolves.toBe(1);
    await expect(details.locator('.badge.blocked-cleanup').count()).resolves.toBe(1);
    await screenshot(page, 'deleted-by-1280x800');
  }, 120_000);
});

// The page while the host's scans fail for a passing lack of fds (reliability-2.md F3): the host says
// "retrying" in the watch's status, and the page shows it beside the live count, then clears it when a
// scan works again. The host's soft RLIMIT_NOFILE is lowered below the fds it has (prlimit --pid), so
// its next open fails as in a flood; the page's WebSocket is already open and keeps working.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSoftFdLimit, softFdLimitOf } from '../support/fd-limit.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';
import { openApp, openChromium, screenshot, startUi, waitForLive, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let ui: RunningUi;
let browser: Browser;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-retrying-'));
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
  browser = await openChromium();
});

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  await killAllHolders();
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('a watch whose scans fail for want of fds, in the page', () => {
  it('shows that it is retrying, then the holder that came meanwhile, and clears the notice', async () => {
    const watched = join(scratch, 'watched');
    mkdirSync(watched);
    const { page } = browser;
    await openApp(page, ui);
    await page.fill('#dir', watched);
    await page.click('button[type=submit]');
    await waitForLive(page, ui);

    const pid = ui.child.pid!;
    const soft = softFdLimitOf(pid);
    setSoftFdLimit(pid, '12');
    const notice = page.getByTestId('watch-retrying');
    try {
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.textContent()).toMatch(/Scans are failing \(EMFILE.*\); trying again in \d+ s\. The table shows/);
      expect(await page.getByTestId('watch-live').textContent()).toMatch(/^live · \d+ scans? · .*Scans are failing/);
      await screenshot(page, 'watch-retrying');
      const late = await pythonHoldingFile(join(watched, 'came-while-failing.txt'));
      setSoftFdLimit(pid, soft);
      await page.locator(`[role=row][data-pid="${late.pid}"]`).waitFor({ timeout: 60_000 });
      await notice.waitFor({ state: 'detached' });
    } finally {
      setSoftFdLimit(pid, soft);
    }
  }, 120_000);
});

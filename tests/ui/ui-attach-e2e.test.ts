// Attaching from the start screen, in a real browser against `holdwatch ui`: a `holdwatch run` started
// as in a terminal (the built CLI, a real bats suite whose teardown fails on a held file) is listed,
// one click follows it, and the run view shows its failure marker and the holder, highlighted once
// frozen at the failure. Detach is offered, not Stop: the UI never ends a terminal run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { endTerminalRuns, killTerminalRun, startTerminalRun } from '../support/terminal-run.js';
import { openApp, openChromium, screenshot, selectFrozenBlocker, startUi, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let data: string;
let ui: RunningUi;
let browser: Browser;
const holderPids = new Set<number>();

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-attach-e2e-'));
  data = join(scratch, 'data');
  mkdirSync(data);
  ui = await startUi({ HOLDWATCH_DATA_DIR: data });
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  endTerminalRuns(holderPids);
  const code = await ui?.stop();
  rmSync(scratch, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  expect(code).toBe(0);
}, 30_000);

describe('holdwatch ui: attach to a terminal run', () => {
  it('lists a running `holdwatch run`, follows it, and shows its failure and the holder', async () => {
    const { page } = browser;
    await openApp(page, ui);
    await page.getByTestId('no-active-runs').waitFor();
    await screenshot(page, '20-attach-no-runs');

    const run = startTerminalRun(join(scratch, 'project'), data);
    const listed = page.getByTestId('active-run').filter({ hasText: 'teardown-blocked.bats' });
    await listed.waitFor({ timeout: 15_000 }); // the list refreshes every 2 s
    await expect(listed.textContent()).resolves.toContain(run.work);
    await screenshot(page, '21-attach-run-listed');

    await listed.click();
    const status = page.getByTestId('run-status');
    await status.getByText('Following').waitFor();
    await page.getByText("following the terminal run's scans").waitFor(); // no second scanner of its own
    await status.getByText(`terminal run · pid ${run.child.pid}`).waitFor();
    await status.getByRole('button', { name: 'Detach' }).waitFor();
    expect(await status.getByRole('button', { name: 'Stop run' }).count()).toBe(0);
    run.go();

    const marker = page.getByTestId('failure-marker').first();
    await marker.waitFor({ timeout: 30_000 });
    await screenshot(page, '22-attach-following-failure');
    await status.getByText(/Ended, exit code 1/).waitFor({ timeout: 30_000 });
    expect(await run.exited).toBe(1); // the terminal's run, its exit code its own
    for (const pid of await page.locator('[role=row][data-pid]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-pid')))))
      holderPids.add(pid);
    await screenshot(page, '23-attach-run-ended');

    const details = await selectFrozenBlocker(page, marker, 'held.log');
    await details.getByText('leaves a holder behind').first().waitFor();
    await screenshot(page, '24-attach-failure-frozen-holder');
  }, 120_000);

  it('a followed run shows the line that opened the handle while it goes, from the terminal run’s own probes', async () => {
    const { page } = browser;
    const project = join(scratch, 'slow-project');
    mkdirSync(project);
    // Line 5 opens the file; the test holds it for 20 s, long past the moment we look.
    writeFileSync(
      join(project, 'test_slow.py'),
      [
        'import os, time',
        '',
        '',
        'def test_holds_while_working():',
        '    log = open(os.path.join(os.environ["EXAMPLE_DIR"], "live.log"), "w")',
        '    time.sleep(20)',
        '    log.close()',
        '',
      ].join('\n'),
    );
    const run = startTerminalRun(project, data, [SYSTEM_PYTHON, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_slow.py']);
    await openApp(page, ui);
    const listed = page.getByTestId('active-run').filter({ hasText: 'test_slow.py' });
    await listed.waitFor({ timeout: 15_000 });
    await listed.click();
    await page.getByTestId('run-status').getByText('Following').waitFor();
    const row = page.locator('[role=row]', { hasText: 'live.log' });
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await page
      .getByTestId('details')
      .getByTestId('opened-at')
      .getByText(/test_slow\.py:5 in test_holds_while_working$/)
      .waitFor({ timeout: 10_000 });
    await expect(page.getByTestId('run-status').textContent()).resolves.toMatch(/Following/); // still going
    await screenshot(page, '25-attach-following-stacks');
    killTerminalRun(run);
    await run.exited;
  }, 90_000);

  it('the DEMO backend (?demo=N) lists an invented terminal run, attaches, and detaches', async () => {
    const { page } = browser;
    await openApp(page, ui, 'demo=3');
    await page.getByTestId('active-run').filter({ hasText: 'pytest -x tests' }).click();
    await page.getByTestId('failure-marker').first().waitFor();
    await page.getByTestId('run-status').getByRole('button', { name: 'Detach' }).click();
    await page
      .getByTestId('run-status')
      .getByText(/Detached: the run goes on in its terminal/)
      .waitFor();
    await screenshot(page, '25-attach-demo-detached');
  }, 60_000);
});

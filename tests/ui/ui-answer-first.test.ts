// The answer first, at the two window sizes developers use (1280×800 and 1920×1080): after a run whose
// holder exited, the banner (the report's first line), the file, the test and the open line are on
// screen without scrolling or hovering, and none is cut; the exited holder's row stays legible; other
// programs' holders fold under one counted line after the run's own. The start form keeps everything
// typed through a failed start, and a run given no working directory runs where holdwatch was started
// (never in the watched dir, where the runner itself would hold it). Screenshots go to test-artifacts/ui/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { killAllHolders, pythonHoldingFile } from '../support/holders.js';
import { SYSTEM_PYTHON } from '../support/run-cli.js';
import { openApp, openChromium, PYTEST_LEAK_OPEN_LINE, screenshot, startUi, waitForLive, WINDOW_SIZES, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let ui: RunningUi;
let browser: Browser;

/** The page's window as the evaluated functions see it (the tests' types know no DOM). */
interface PageWindow {
  innerWidth: number;
  innerHeight: number;
  getComputedStyle(element: unknown): { overflowX: string; overflowY: string; textDecorationLine: string; opacity: string; position: string };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-answer-'));
  mkdirSync(join(scratch, 'data'));
  // Started in the repository, as a developer starts it in their project: the run's default working directory.
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await killAllHolders();
  await browser?.close();
  await ui?.stop();
  rmSync(scratch, { recursive: true, force: true, maxRetries: 40, retryDelay: 250 });
}, 30_000);

/** Fills the start form (the working directory only when given) and submits it. */
async function fillStart(page: Page, { dir, command, cwd }: { dir: string; command: string; cwd?: string }): Promise<void> {
  await openApp(page, ui);
  await page.fill('#dir', dir);
  await page.getByText('Run a test command under holdwatch (optional)').click();
  await page.fill('#command', command);
  if (cwd !== undefined) await page.fill('#cwd', cwd);
  await page.click('button[type=submit]');
}

async function runToEnd(page: Page): Promise<void> {
  await waitForLive(page, ui);
  await page
    .getByTestId('run-status')
    .getByText(/Ended, exit code/)
    .waitFor({ timeout: 60_000 });
}

/**
 * On screen as it stands, whole: inside the viewport and inside its scroll container's box, with no
 * text overflowing (a cut or an ellipsis makes scrollWidth exceed clientWidth).
 */
async function expectOnScreenWhole(element: Locator, what: string): Promise<void> {
  const facts = await element.evaluate((node) => {
    const win = globalThis as unknown as PageWindow;
    const box = node.getBoundingClientRect();
    let clip = { top: 0, left: 0, bottom: win.innerHeight, right: win.innerWidth };
    // A fixed element is placed by the window alone: no ancestor's overflow clips it.
    const fixed = win.getComputedStyle(node).position === 'fixed';
    for (let p = fixed ? null : node.parentElement; p; p = p.parentElement) {
      const style = win.getComputedStyle(p);
      if (style.overflowY !== 'visible' || style.overflowX !== 'visible') {
        const r = p.getBoundingClientRect();
        clip = {
          top: Math.max(clip.top, r.top),
          left: Math.max(clip.left, r.left),
          bottom: Math.min(clip.bottom, r.bottom),
          right: Math.min(clip.right, r.right),
        };
      }
    }
    const el = node;
    return {
      box: { top: box.top, left: box.left, bottom: box.bottom, right: box.right },
      clip,
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      text: el.textContent,
    };
  });
  const where = `${what} (${JSON.stringify(facts)})`;
  expect(facts.box.bottom - facts.box.top, where).toBeGreaterThan(0);
  expect(facts.box.top, where).toBeGreaterThanOrEqual(facts.clip.top - 1);
  expect(facts.box.left, where).toBeGreaterThanOrEqual(facts.clip.left - 1);
  expect(facts.box.bottom, where).toBeLessThanOrEqual(facts.clip.bottom + 1);
  expect(facts.box.right, where).toBeLessThanOrEqual(facts.clip.right + 1);
  expect(facts.scrollWidth, where).toBeLessThanOrEqual(facts.clientWidth);
}

describe.each(WINDOW_SIZES)('at $width×$height', ({ width, height }) => {
  const size = `${width}x${height}`;

  it('after a run whose holder exited: the banner, the file, the test and the open line, on screen and whole', async () => {
    const { page } = browser;
    await page.setViewportSize({ width, height });
    const work = join(scratch, `answer-${size}`);
    mkdirSync(work);
    // A program outside the run holding a file there: counted and folded after the run's own rows.
    const outsider = await pythonHoldingFile(join(work, 'editor.swp'));
    await fillStart(page, { dir: work, command: `EXAMPLE_DIR=${work} ${SYSTEM_PYTHON} -m pytest -q -p no:cacheprovider examples/pytest-leak` });
    await runToEnd(page);

    const banner = page.getByTestId('answer-banner');
    await banner.waitFor();
    const said = (await banner.textContent()) ?? '';
    expect(said).toContain('session.log');
    expect(said).toContain('test_leak.py::test_writes_log');
    expect(said).toContain(`test_leak.py:${PYTEST_LEAK_OPEN_LINE}`);
    expect(said).toMatch(/WinError 32/);
    await expectOnScreenWhole(banner, 'the banner');

    // The holder exited: its row says so in a word and stays as legible as a live one.
    const row = page.locator('.scroller [role=row]', { hasText: 'session.log' });
    await expect(row.getByTestId('row-ended').textContent()).resolves.toBe('exited');
    const look = await row.evaluate((n) => {
      const style = (globalThis as unknown as PageWindow).getComputedStyle(n);
      return { decoration: style.textDecorationLine, opacity: style.opacity };
    });
    expect(look).toEqual({ decoration: 'none', opacity: '1' });
    // The run's own row first; the outsider folded under its count.
    await expect(page.locator('.scroller [role=row]').first().textContent()).resolves.toContain('session.log');
    const outside = page.getByTestId('section-outside');
    await expect(outside.textContent()).resolves.toMatch(/1 holder of processes outside the run/);
    await expect(outside.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.locator('.scroller [role=row]', { hasText: 'editor.swp' }).count()).resolves.toBe(0);
    // The timeline too: the run's lane first, though the outsider was seen first.
    await expect(page.getByTestId('holder-lane').first().textContent()).resolves.toContain('session.log');

    // Path and Test lose their middle, never their end: the file's and the test's own names are whole.
    await expect(row.locator('.col-path [data-testid=elided-tail]').textContent()).resolves.toBe('session.log');
    await expect(row.locator('.col-test [data-testid=elided-tail]').textContent()).resolves.toBe('test_writes_log');
    await expect(row.locator('.col-path').getAttribute('title')).resolves.toBe(join(work, 'session.log'));
    await expect(row.locator('.col-test').getAttribute('title')).resolves.toBe('test_leak.py::test_writes_log');
    for (const cell of ['.col-path', '.col-test']) {
      await expectOnScreenWhole(row.locator(cell), `the row's ${cell}`);
      await expectOnScreenWhole(row.locator(`${cell} [data-testid=elided-tail]`), `the end of ${cell}`);
    }

    // The details lead with held / opened at / during / verdict: one "during", the first sighting in small print.
    await row.click();
    const details = page.getByTestId('details');
    await expect(details.getByTestId('held-path').textContent()).resolves.toBe(join(work, 'session.log'));
    await expect(details.getByTestId('opened-at').textContent()).resolves.toMatch(new RegExp(`test_leak\\.py:${PYTEST_LEAK_OPEN_LINE} in test_writes_log$`));
    await expect(details.getByTestId('opened-during').textContent()).resolves.toMatch(/^test_leak\.py::test_writes_log · .*first seen at \d\d:/);
    for (const id of ['held-path', 'opened-at', 'opened-during']) await expectOnScreenWhole(details.getByTestId(id), id);
    const labels = await details.locator('dt').allTextContents();
    expect(
      labels.filter((l) => /during/i.test(l)),
      labels.join(' | '),
    ).toEqual(['During']);
    await screenshot(page, `answer-${size}-1-after-run`);

    // The export's feedback shows where the eye is, whatever the panel's place.
    for (const [button, said] of [
      ['Save HTML', /^Saved holdwatch-.*\.html\./],
      ['Copy Markdown', /Markdown|clipboard/],
    ] as const) {
      await page.getByRole('button', { name: button }).click();
      const notice = page.getByTestId('export-notice');
      await expect(notice.textContent()).resolves.toMatch(said);
      await expectOnScreenWhole(notice, `the notice after ${button}`);
    }
    await screenshot(page, `answer-${size}-2-export-notice`);
    outsider.child.kill();
  }, 120_000);

  it('a failed start keeps every field: a missing directory, then a missing working directory', async () => {
    const { page } = browser;
    await page.setViewportSize({ width, height });
    const fields = { dir: join(scratch, `no-such-dir-${size}`), command: 'sh -c "sleep 0.2"', cwd: 'no/such/cwd' };
    await fillStart(page, fields);
    await page
      .getByRole('alert')
      .getByText(/no-such-dir/)
      .waitFor({ timeout: 20_000 });
    const values = async () => ({ dir: await page.inputValue('#dir'), command: await page.inputValue('#command'), cwd: await page.inputValue('#cwd') });
    await expect(values()).resolves.toEqual(fields);
    // A relative working directory is shown resolved against where holdwatch was started, before it is used.
    await expect(page.getByTestId('cwd-resolved').textContent()).resolves.toBe(
      `Runs in ${join(REPO_ROOT, 'no/such/cwd')} (relative to where holdwatch was started)`,
    );
    await screenshot(page, `answer-${size}-3-failed-start`);

    // The directory now exists; the working directory still does not: the run cannot start, nothing typed is lost.
    mkdirSync(fields.dir);
    await page.click('button[type=submit]');
    await page
      .getByRole('alert')
      .getByText(/working directory .*no\/such\/cwd does not exist/)
      .waitFor({ timeout: 30_000 });
    await expect(values()).resolves.toEqual(fields);

    // Labels above their inputs; the command's input as wide as the form.
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    for (const id of ['dir', 'command', 'cwd'])
      expect((await box(`label[for=${id}]`)).y + (await box(`label[for=${id}]`)).height).toBeLessThanOrEqual((await box(`#${id}`)).y + 1);
    expect((await box('#command')).width).toBeGreaterThanOrEqual((await box('form.start')).width - 80);
    await screenshot(page, `answer-${size}-4-failed-run-start`);
  }, 90_000);

  it('a run with an empty working directory runs where holdwatch was started and lists no holder of its own', async () => {
    const { page } = browser;
    await page.setViewportSize({ width, height });
    const work = join(scratch, `empty-cwd-${size}`);
    mkdirSync(work);
    await fillStart(page, { dir: work, command: `sh -c 'pwd; sleep 1.5'` });
    await runToEnd(page);
    await page.getByText(/^Output \(/).click();
    await expect(page.locator('.output pre').textContent()).resolves.toBe(`${REPO_ROOT.replace(/\/$/, '')}\n`);
    await expect(page.locator('.scroller [role=row]').count()).resolves.toBe(0);
    await screenshot(page, `answer-${size}-5-empty-cwd`);
    // The form said so before the run: where it runs when the field is left empty.
    // (The draft keeps the command, so its part of the form is open.)
    await page.getByRole('button', { name: 'Change directory' }).click();
    await page.fill('#cwd', '');
    await expect(page.getByTestId('cwd-resolved').textContent()).resolves.toMatch(
      new RegExp(`^Runs in ${REPO_ROOT.replace(/\/$/, '')}, where holdwatch was started`),
    );
  }, 90_000);
});

describe('a node:test worker', () => {
  it('is named by its test file, its internal flags folded; the banner says the delete that Windows refuses', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 800 });
    const work = join(scratch, 'node-ebusy');
    mkdirSync(work);
    await fillStart(page, { dir: work, command: `EXAMPLE_DIR=${work} ${process.execPath} --test examples/node-ebusy/ebusy.test.mjs` });
    await runToEnd(page);
    await expect(page.getByTestId('answer-banner').textContent()).resolves.toMatch(/deleted .*cache\.lock while .*still held it/);
    const row = page.locator('.scroller [role=row]', { hasText: 'cache.lock' }).first();
    await expect(row.locator('.process-name').textContent()).resolves.toBe('node examples/node-ebusy/ebusy.test.mjs');
    await row.click();
    const commandLine = page.getByTestId('details').getByTestId('command-line');
    await expect(commandLine.locator('summary').textContent()).resolves.toMatch(/^\d+ internal flags$/);
    await expect(commandLine.locator('strong').textContent()).resolves.toBe('examples/node-ebusy/ebusy.test.mjs');
    await screenshot(page, 'answer-1280x800-6-node-test-worker');
  }, 90_000);
});

// The details panel's live stack in a real browser against `holdwatch ui`: select a real holder
// (python3), click Live stack, see progress and then its frames, copy them; with no stack tool on the
// host's PATH, the panel says what to install instead of going blank.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAllHolders } from '../support/holders.js';
import { openApp, openChromium, screenshot, selectPythonHolder as selectHolderIn, startUi, type Browser, type RunningUi } from './ui-support.js';

let scratch: string;
let browser: Browser;
const uis: RunningUi[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-live-stack-'));
  mkdirSync(join(scratch, 'data'));
  mkdirSync(join(scratch, 'no-tools'));
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await killAllHolders();
  const codes = await Promise.all(uis.map((ui) => ui.stop()));
  rmSync(scratch, { recursive: true, force: true });
  expect(codes.every((c) => c === 0)).toBe(true);
}, 30_000);

/** Watches a fresh dir in which a python3 holds a file, and selects that holder. */
function selectPythonHolder(ui: RunningUi, name: string) {
  return selectHolderIn(browser.page, ui, join(scratch, name));
}

describe('live stack in the details panel', () => {
  it('takes the stack of a real python3 holder: progress, then frames, and a copy', async () => {
    const ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
    uis.push(ui);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ui.origin });
    const { holder, details, page } = await selectPythonHolder(ui, 'watched');
    const section = details.getByTestId('live-stack');
    await section.getByRole('button', { name: 'Live stack' }).click();
    await section.getByRole('status').getByText(`Taking the stack of PID ${holder.pid}`).waitFor();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, '08a-live-stack-running');
    const text = section.getByTestId('live-stack-text');
    await text.waitFor({ timeout: 30_000 });
    const frames = await text.innerText();
    expect(frames).toMatch(new RegExp(`^thread ${holder.pid}`)); // the note is a sentence above, not repeated in the box
    // The holder waits on its stdin: a read in libc, under the interpreter's eval loop.
    expect(frames).toMatch(/read|select|poll|nanosleep/);
    expect(frames).toMatch(/_PyEval_EvalFrameDefault|PyRun|Py_RunMain|main/);
    await expect(section.textContent()).resolves.toMatch(/by (gdb|eu-stack)/);
    await text.scrollIntoViewIfNeeded();
    await screenshot(page, '08-live-stack-python-holder');

    await section.getByRole('button', { name: 'Copy stack' }).click();
    await section.getByText('Stack copied to the clipboard.').waitFor();
    // The copy is the whole text, as `holdwatch stack` prints it: the note (native frames only), then the same frames.
    // A string, so the test's Node types need no DOM: it runs in the page.
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied.trimEnd().endsWith(frames.trimEnd())).toBe(true);
    expect(copied).toMatch(/^note: .*py-spy/);
  }, 90_000);

  it('on a Windows host (the DEMO backend, ?demo=N, with a C:\\ dir) the button saves a dump and lists the threads', async () => {
    const ui = uis[0]!;
    const { page } = browser;
    await openApp(page, ui, 'demo=3');
    await page.fill('#dir', 'C:\\demo');
    await page.click('button[type=submit]');
    await page.locator('[role=row][data-pid]').first().click();
    const section = page.getByTestId('details').getByTestId('live-stack');
    await section.getByRole('button', { name: 'Save dump + threads' }).click();
    await section.getByText(/Writing a minidump of PID \d+/).waitFor();
    await section.getByText(/^Minidump saved: C:\\Users\\demo\\.*\.dmp$/).waitFor();
    await expect(section.getByTestId('live-stack-text').textContent()).resolves.toMatch(/^thread \d+ Waiting \(UserRequest\) start 0x/);
    await expect(section.textContent()).resolves.toMatch(/3 threads/);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, '10-demo-windows-save-dump');
  }, 60_000);

  it('says what is missing, with the next step, when the host has no stack tool', async () => {
    const ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data'), PATH: join(scratch, 'no-tools') });
    uis.push(ui);
    const { details, page } = await selectPythonHolder(ui, 'watched-no-tools');
    const section = details.getByTestId('live-stack');
    await section.getByRole('button', { name: 'Live stack' }).click();
    const unavailable = section.getByTestId('live-stack-unavailable');
    await unavailable.waitFor({ timeout: 30_000 });
    await expect(unavailable.textContent()).resolves.toMatch(
      /^No live stack: no stack tool found on PATH \(py-spy, gdb, eu-stack\)\. Next: install py-spy \(pip install py-spy\) or gdb/,
    );
    await unavailable.scrollIntoViewIfNeeded();
    await screenshot(page, '09-live-stack-no-tool');
  }, 90_000);
});

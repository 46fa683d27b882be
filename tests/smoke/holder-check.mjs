// The smoke test's facts and its one check, shared by the Electron smoke (electron-smoke.mjs, on real
// machines) and the UI test that runs it here against `holdwatch ui` in Chromium (the same renderer).
// Plain JavaScript: the smoke runs with `node` after `npm run build`, without compiling tests/.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const HOLD_FILE = `const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'a');
process.stdout.write('ready\\n');
setInterval(() => fs.fstatSync(fd), 60_000); // keeps it alive, and the fd with it`;

/** A temp dir, and a real node child that opens a file in it and waits until stopped. */
export async function startHeldDir() {
  const dir = mkdtempSync(join(tmpdir(), 'hw-smoke-'));
  const fileName = 'held-by-smoke.txt';
  const child = spawn(process.execPath, ['-e', HOLD_FILE, join(dir, fileName)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the holder exited early (${code})`)));
    child.stdout.on('data', (d) => String(d).includes('ready') && resolve(undefined));
  });
  return {
    dir,
    fileName,
    pid: child.pid,
    // As the backends name it: `node` from /proc on Linux, `node.exe` on Windows (compared without `.exe`).
    processName: basename(process.execPath),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
    },
  };
}

const bareName = (name) =>
  name
    .trim()
    .replace(/\.exe$/i, '')
    .toLowerCase();

/**
 * The app was started on `held.dir` (the desktop app's argument, `holdwatch ui --watch`): checks it
 * opened straight onto watching it, nothing typed, and that the holder's row appears with its process
 * name. Resolves to one line saying what was seen; rejects with what the window showed instead.
 */
export async function expectHolderShown(page, held, timeoutMs = 30_000) {
  const step = async (what, wait) => {
    try {
      return await wait();
    } catch (error) {
      const shown = await page
        .locator('body')
        .innerText()
        .catch(() => '(window unreadable)');
      throw new Error(`${what} within ${timeoutMs} ms; the window showed: ${JSON.stringify(shown.replace(/\s+/g, ' ').slice(0, 400))}`, { cause: error });
    }
  };
  await step(`the window did not open onto watching ${held.dir}`, () => page.locator('header .dir', { hasText: held.dir }).waitFor({ timeout: timeoutMs }));
  await step('the watch did not go live', () => page.getByTestId('watch-live').waitFor({ timeout: timeoutMs }));
  const row = page.locator(`[role=row][data-pid="${held.pid}"]`).filter({ hasText: held.fileName }).first();
  await step(`no row for PID ${held.pid} holding ${held.fileName}`, () => row.waitFor({ timeout: timeoutMs }));
  const name = (await row.locator('.col-process').textContent()) ?? '';
  if (bareName(name) !== bareName(held.processName)) {
    throw new Error(`the row for PID ${held.pid} names its process ${JSON.stringify(name)}, not ${held.processName}`);
  }
  return `watched ${held.dir} and showed ${name.trim()} (PID ${held.pid}) holding ${held.fileName}`;
}

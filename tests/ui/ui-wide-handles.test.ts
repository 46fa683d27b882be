// A process holding tens of thousands of files has five-digit fds: the table shows such a handle
// whole beside its kind, not cut to "file 1…" (a real python3 holding a file at fd 10000).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, openChromium, screenshot, startUi, waitForLive, type Browser, type RunningUi } from './ui-support.js';

/** The smallest five-digit fd: python3 raises its own soft fd limit past it (the hard limit allows it nearly everywhere). */
const FD = 10000;
let scratch: string;
let browser: Browser;
let ui: RunningUi;
const holders: ReturnType<typeof spawn>[] = [];

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-wide-'));
  mkdirSync(join(scratch, 'data'));
  mkdirSync(join(scratch, 'watched'));
  browser = await openChromium();
  ui = await startUi({ HOLDWATCH_DATA_DIR: join(scratch, 'data') });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const holder of holders) holder.kill('SIGKILL');
  const code = await ui?.stop();
  rmSync(scratch, { recursive: true, force: true });
  expect(code).toBe(0);
}, 30_000);

/** python3 holding `path` at fd `fd` (dup2), until killed. */
function pythonHoldingAtFd(path: string, fd: number): Promise<number> {
  const script = `import os, resource, sys, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if soft != resource.RLIM_INFINITY and soft <= ${fd}:
    resource.setrlimit(resource.RLIMIT_NOFILE, (${fd} + 1, hard))
opened = os.open(sys.argv[1], os.O_RDONLY | os.O_CREAT)
os.dup2(opened, ${fd})
os.close(opened)
print("ready", flush=True)
time.sleep(3600)`;
  const child = spawn('python3', ['-c', script, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  holders.push(child);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`python3 exited early (${code})`)));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child.pid!));
  });
}

describe('the holders table at large fd numbers', () => {
  it('shows a five-digit fd whole in the Kind column', async () => {
    const { page } = browser;
    const watched = join(scratch, 'watched');
    const pid = await pythonHoldingAtFd(join(watched, 'many.dat'), FD);
    await openApp(page, ui);
    await page.fill('#dir', watched);
    await page.click('button[type=submit]');
    await waitForLive(page, ui);
    const kind = page.locator(`[role=row][data-pid="${pid}"] .col-kind`).filter({ hasText: String(FD) });
    await kind.waitFor();
    await expect(kind.textContent()).resolves.toBe(`file ${FD}`);
    const fits = await kind.evaluate((cell) => cell.scrollWidth <= cell.clientWidth);
    await screenshot(page, 'wide-handles-01-five-digit-fd');
    expect(fits).toBe(true);
  }, 60_000);
});

// The desktop app's directory argument end to end, but for Electron itself: the session is started on
// what the first instance's argv names and is handed each second instance's argv, as electron/main.ts
// does (dirToOpenFrom, then HostSession.requestOpenDir), and serves the real renderer in Chromium. A
// missing dir opens the start screen with its one line; a second instance's relative dir, resolved
// against that instance's working directory, turns the window to watching it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDERER_DIR } from '../../dist/host/install-paths.js';
import type { HostSession } from '../../dist/host/session/host-session.js';
import { startUiServer, type UiServer } from '../../dist/host/web/ui-server.js';
import { dirToOpenFrom } from '../../electron/dir-argument.js';
import { expectHolderShown, startHeldDir, type HeldDir } from '../smoke/holder-check.mjs';
import { scratchSession } from '../support/scratch-session.js';
import { openChromium, screenshot, type Browser } from './ui-support.js';

const packaged = (workingDirectory: string) => ({ packaged: true, workingDirectory, platform: process.platform });

let scratch: string;
let held: HeldDir;
let session: HostSession;
let server: UiServer;
let browser: Browser;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'hw-ui-second-'));
  held = await startHeldDir();
  // The first instance, as Explorer would start it on a folder deleted since.
  const firstArgv = ['holdwatch.exe', '--original-process-start-time=13371337', join(scratch, 'deleted-since')];
  session = scratchSession(scratch, { dirToOpen: dirToOpenFrom(firstArgv, packaged(scratch)) });
  server = await startUiServer({ service: session, port: 0, staticDir: RENDERER_DIR });
  browser = await openChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await session?.dispose();
  await held?.stop();
  rmSync(scratch, { recursive: true, force: true });
}, 30_000);

describe('the app started on a directory, then a second instance', () => {
  it('opens on the start screen with the one line when the dir is gone, then turns to the dir a second instance names', async () => {
    const { page } = browser;
    await page.goto(server.url);
    const alert = page.getByRole('alert');
    await alert.getByText(`no such directory: ${join(scratch, 'deleted-since')}`).waitFor();
    await expect(alert.allTextContents()).resolves.toEqual([`no such directory: ${join(scratch, 'deleted-since')}`]);
    await page.locator('#dir').waitFor(); // the start screen, ready for another directory
    await screenshot(page, '31-started-on-a-missing-dir');

    // `holdwatch.exe <name>` typed in a terminal in the held dir's parent, while the app runs.
    session.requestOpenDir(dirToOpenFrom(['holdwatch.exe', '--allow-file-access-from-files', basename(held.dir)], packaged(dirname(held.dir)))!);
    await expect(expectHolderShown(page, held)).resolves.toBe(`watched ${held.dir} and showed node (PID ${held.pid}) holding held-by-smoke.txt`);
    await screenshot(page, '32-second-instance-turned-the-window');

    // A reload opens onto the latest directory asked for, not the first instance's.
    await page.goto('about:blank');
    await page.goto(server.url);
    await expectHolderShown(page, held);
  }, 90_000);
});

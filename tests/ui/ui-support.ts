// Drives the real UI: `holdwatch ui --port 0 --no-open` as a child process, and Debian's Chromium
// through playwright-core (headless, a fresh profile each time). Screenshots go to test-artifacts/ui/.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS as FLAGS } from '../../bench/ui-browser.js';
import { CLI, REPO_ROOT } from '../support/cli.js';
import { pythonHoldingFile } from '../support/holders.js';

export { CHROMIUM };
/** The two window sizes developers use: a laptop's and a desktop monitor's. */
export const WINDOW_SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
/** examples/pytest-leak/test_leak.py: `log = open(work_dir() / "session.log", "w")`. */
export const PYTEST_LEAK_OPEN_LINE = 21;
export const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'ui');

export interface RunningUi {
  /** As printed: the token in its fragment. */
  url: string;
  /** The URL with a query (e.g. `demo=3`) before its fragment. */
  urlWith(query: string): string;
  token: string;
  origin: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGINT, as Ctrl-C; resolves to the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `asUser`: run the host as that user (setpriv), e.g. `nobody` to see what a non-root user sees.
 * `host`: a test host script to run instead of the CLI's `ui` (it prints its URL the same way).
 * `openBrowser`: let it open "the browser" (whatever xdg-open is on the env's PATH).
 * `args`: more of `holdwatch ui`'s options, e.g. `['--watch', dir]`.
 * `maxFds`: the host's fd limit, soft and hard (prlimit; Node raises a soft one to the hard one).
 */
export function startUi(
  env: Record<string, string> = {},
  options: { asUser?: string; host?: string; openBrowser?: boolean; args?: string[]; maxFds?: number } = {},
): Promise<RunningUi> {
  const argv = options.host ? [options.host] : [CLI, 'ui', '--port', '0', ...(options.openBrowser ? [] : ['--no-open']), ...(options.args ?? [])];
  const [program, programArgs]: [string, string[]] = options.asUser
    ? [
        'setpriv',
        [`--reuid=${options.asUser}`, `--regid=${options.asUser === 'nobody' ? 'nogroup' : options.asUser}`, '--clear-groups', process.execPath, ...argv],
      ]
    : [process.execPath, argv];
  const [command, args] =
    options.maxFds === undefined ? [program, programArgs] : ['prlimit', [`--nofile=${options.maxFds}:${options.maxFds}`, program, ...programArgs]];
  const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`holdwatch ui printed no URL; stderr: ${err}`)), 20_000);
    child.on('exit', (code) => reject(new Error(`holdwatch ui exited (${code}): ${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const url = /^(http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      const { origin, hash } = new URL(url);
      resolve({
        url,
        urlWith: (query) => `${origin}/?${query}${hash}`,
        token: hash.replace('#token=', ''),
        origin,
        child,
        stderr: () => err,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGINT');
          return exited;
        },
      });
    });
  });
}

/**
 * Loads the app fresh from the printed URL (`query`, e.g. `demo=3`, before its fragment). Through
 * about:blank: a page already at the origin would take the URL as a fragment change and not reload.
 */
export async function openApp(page: Page, ui: RunningUi, query?: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(query ? ui.urlWith(query) : ui.url);
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function openChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'hw-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1400, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      try {
        await context.close();
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Freezes the view at a failure (its marker clicked), checks the blocker of `path` is highlighted as
 * blocked cleanup, and selects it; returns the details panel.
 */
export async function selectFrozenBlocker(page: Page, marker: Locator, path: string): Promise<Locator> {
  await marker.click();
  await page.getByText(/^Frozen at/).waitFor();
  const highlighted = page.locator('[role=row].highlighted', { hasText: path });
  await highlighted.first().waitFor();
  await expect(highlighted.first().textContent()).resolves.toMatch(/blocked cleanup/);
  await highlighted.first().click();
  return page.getByTestId('details');
}

/**
 * Waits for the watch to be live (and, given `text`, for its status line to show it). On a timeout the
 * error says what the page and the host showed instead: a flake under load is then a fact, not a guess.
 */
export async function waitForLive(page: Page, ui: RunningUi, text?: RegExp, timeout = 30_000): Promise<void> {
  const live = page.getByTestId('watch-live');
  try {
    await (text ? live.getByText(text) : live).waitFor({ timeout });
  } catch (error) {
    const shown = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '(page unreadable)')
    ).slice(0, 600);
    await screenshot(page, 'failed-wait-for-live').catch(() => undefined);
    throw new Error(
      `watch not live${text ? ` with ${text}` : ''} after ${timeout} ms; the page showed: ${JSON.stringify(shown)}; host stderr: ${JSON.stringify(ui.stderr().slice(-600))}`,
      { cause: error },
    );
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Makes `watched`, loads the app fresh and watches it from the start screen, until the watch is live. */
export async function watchInApp(page: Page, ui: RunningUi, watched: string): Promise<void> {
  mkdirSync(watched);
  await openApp(page, ui);
  await page.fill('#dir', watched);
  await page.click('button[type=submit]');
  await waitForLive(page, ui);
}

/** Watches `watched` (made here) in `page`, starts a python3 holding `held.log` in it, and selects that holder's row. */
export async function selectPythonHolder(page: Page, ui: RunningUi, watched: string) {
  await watchInApp(page, ui, watched);
  const holder = await pythonHoldingFile(join(watched, 'held.log'));
  const row = page.locator(`[role=row][data-pid="${holder.pid}"]`);
  await row.waitFor();
  await row.click();
  const details = page.getByTestId('details');
  await details.getByText(`PID ${holder.pid}`).waitFor();
  return { holder, details, page };
}

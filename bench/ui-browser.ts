// What both UI benches share: `holdwatch ui` started as a user starts it, headless Chromium, and the
// page-side timers of bench/ui-volume-page.js.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type JSHandle, type Page } from 'playwright-core';

export const CHROMIUM = process.env.HOLDWATCH_CHROMIUM ?? '/usr/bin/chromium';
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RENDER_TARGET_MS = 200;
export const FRAME_TARGET_MS = 16.7;
// rAF timestamps are clamped to 100 µs outside a cross-origin-isolated page (Chromium's coarsening of
// DOMHighResTimeStamp), so an idle 60 Hz interval (16.667 ms) reads 16.6, 16.7 or 16.8: a p95 one tick
// above the idle interval is the display's own pace, no frame dropped (a dropped frame reads 33.3).
const RAF_TICK_MS = 0.1;
/** Headless Chromium as the UI tests run it too (tests/ui/ui-support.ts): no sandbox (root in CI), no GPU, nothing fetched. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface ScrollTimes {
  frames: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
  jumpMs: number;
  domRows: number;
}

/** Page-side times of one watch, from the page's navigation start (performance.timeOrigin). */
export interface WatchArrival {
  /** The start screen (or the table) was first on screen. */
  pageReadyMs: number;
  /** The first message of the watch's holders arrived on the WebSocket (null on the demo backend). */
  firstHoldersMessageMs: number | null;
  firstRowMs: number;
  allRowsMs: number;
  /** Holders the table counted when it stopped waiting: all of them, unless the page was closed. */
  shown: number;
  /** The WebSocket's close code if the host closed the page (1013: it read too slowly), else null. */
  closeCode: number | null;
}

/** What bench/ui-volume-page.js puts on the page's window. */
export interface PageBench {
  render(expected: string): Promise<number>;
  arrival(expectedCount: number): Promise<WatchArrival>;
  demoHoldersMs(): number | null;
  idleFrames(): Promise<number>;
  scroll(stepPx: number): Promise<ScrollTimes>;
  sortBy(column: string): Promise<number>;
  filter(text: string): Promise<number>;
}

export interface HoldwatchUi {
  url: string;
  stop(): void;
}

/** `holdwatch ui --no-open` with its own data dir; resolves with the URL it prints (the token in its fragment). */
export async function startHoldwatchUi(extraArgs: string[] = []): Promise<HoldwatchUi> {
  const data = mkdtempSync(join(tmpdir(), 'hw-bench-ui-'));
  const ui: ChildProcess = spawn(process.execPath, [ROOT + 'bin/holdwatch.js', 'ui', '--port', '0', '--no-open', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HOLDWATCH_DATA_DIR: data },
  });
  const stop = () => {
    ui.kill('SIGINT');
    rmSync(data, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      ui.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^(http\S+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      ui.on('exit', (code) => reject(new Error(`holdwatch ui exited ${code}`)));
    });
    return { url, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** A headless Chromium with a throwaway profile; `use` gets it, and it is closed and removed after. */
export async function withBrowser<T>(use: (context: BrowserContext) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'hw-bench-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1400, height: 900 },
    });
    try {
      return await use(context);
    } finally {
      await context.close();
    }
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Opens `url` in a new page of `context` with the bench's timers injected before anything loads. */
export async function openBenchPage(context: BrowserContext, url: string): Promise<{ page: Page; bench: JSHandle<PageBench> }> {
  const page = await context.newPage();
  await page.addInitScript({ path: ROOT + 'bench/ui-volume-page.js' });
  await page.goto(url);
  const bench = await page.evaluateHandle(() => (globalThis as unknown as { __hwBench: PageBench }).__hwBench);
  return { page, bench };
}

/** Whether a scroll's p95 is within the target, or within one timestamp tick of this browser's idle frame interval. */
export function scrollOnPace(p95Ms: number, idleMs: number): boolean {
  const ticks = (ms: number) => Math.round(ms / RAF_TICK_MS);
  return ticks(p95Ms) <= Math.max(ticks(FRAME_TARGET_MS), ticks(idleMs) + 1);
}

export const passOrMiss = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
export const ms1 = (n: number): string => n.toFixed(1);

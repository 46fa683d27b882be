// UI responsiveness with 20,000 holders: `holdwatch ui` in headless Chromium with the renderer's
// DEMO backend (?demo=N, invented holders; the real backend is not what is measured here). Prints
// time to render the table, scroll frame times, a sort, a filter, and how many rows the DOM holds.
// The demo invents its holders when the page loads (a real host's scan runs in another process), so
// the render time is their arrival as events, the store and the table; the invention is printed apart.
// Run: npm run bench:ui [-- count] (npm run bench runs it too, when there is a Chromium).
// Targets (issue 17): the table shown within 200 ms, scroll frames p95 <= 16.7 ms (one 60 Hz frame).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const COUNT = Number(process.argv[2] ?? 20_000);
const CHROMIUM = process.env.HOLDWATCH_CHROMIUM ?? '/usr/bin/chromium';
const RENDER_TARGET_MS = 200;
const FRAME_TARGET_MS = 16.7;
// rAF timestamps are clamped to 100 µs outside a cross-origin-isolated page (Chromium's coarsening of
// DOMHighResTimeStamp), so an idle 60 Hz interval (16.667 ms) reads 16.6, 16.7 or 16.8: a p95 one tick
// above the idle interval is the display's own pace, no frame dropped (a dropped frame reads 33.3).
const RAF_TICK_MS = 0.1;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** What bench/ui-volume-page.js puts on the page's window. */
interface PageBench {
  render(expected: string): Promise<number>;
  demoHoldersMs(): number | null;
  idleFrames(): Promise<number>;
  scroll(stepPx: number): Promise<{ frames: number; medianMs: number; p95Ms: number; maxMs: number; jumpMs: number; domRows: number }>;
  sortBy(column: string): Promise<number>;
  filter(text: string): Promise<number>;
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`SKIP  UI with ${COUNT} holders: no Chromium at ${CHROMIUM} (apt-get install chromium, or HOLDWATCH_CHROMIUM)`);
    return;
  }
  const data = mkdtempSync(join(tmpdir(), 'hw-bench-ui-'));
  const ui = spawn(process.execPath, [ROOT + 'bin/holdwatch.js', 'ui', '--port', '0', '--no-open'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, HOLDWATCH_DATA_DIR: data },
  });
  const profile = mkdtempSync(join(tmpdir(), 'hw-bench-chromium-'));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      ui.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^(http\S+)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      ui.on('exit', (code) => reject(new Error(`holdwatch ui exited ${code}`)));
    });
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1400, height: 900 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.addInitScript({ path: ROOT + 'bench/ui-volume-page.js' });
      await page.goto(`${new URL(url).origin}/?demo=${COUNT}${new URL(url).hash}`);
      await page.fill('#dir', '/demo');
      const expected = COUNT.toLocaleString('en-US');
      const bench = await page.evaluateHandle(() => (globalThis as unknown as { __hwBench: PageBench }).__hwBench);
      const idleMs = await bench.evaluate((b) => b.idleFrames());
      const renderMs = await bench.evaluate((b, expected) => b.render(expected), expected);
      const demoMs = await bench.evaluate((b) => b.demoHoldersMs());
      const wheel = await bench.evaluate((b) => b.scroll(100));
      const scroll = await bench.evaluate((b) => b.scroll(1000));
      const sortMs = await bench.evaluate((b) => b.sortBy('pid'));
      const filterMs = await bench.evaluate((b) => b.filter('shard-42/'));
      const shownAfterFilter = await page.textContent('[data-testid=row-count]');
      const f = (n: number) => n.toFixed(1);
      console.log(`ui-volume: ${COUNT} holders (DEMO backend), headless Chromium, ${CHROMIUM}`);
      console.log(`  render: click Watch -> ${expected} rows shown: ${f(renderMs)} ms`);
      if (demoMs !== null) console.log(`  (not in it: the DEMO backend invented the ${expected} holders at page load, in ${f(demoMs)} ms)`);
      console.log(`  idle frame interval (this browser's floor): median ${f(idleMs)} ms`);
      console.log(`  scroll: ${wheel.frames} frames of +100 px: median ${f(wheel.medianMs)} ms, p95 ${f(wheel.p95Ms)} ms, max ${f(wheel.maxMs)} ms`);
      console.log(
        `  scroll: ${scroll.frames} frames of +1000 px: median ${f(scroll.medianMs)} ms, p95 ${f(scroll.p95Ms)} ms, max ${f(scroll.maxMs)} ms; jump to the end ${f(scroll.jumpMs)} ms`,
      );
      console.log(`  sort by PID: ${f(sortMs)} ms; filter 'shard-42/' (${shownAfterFilter}): ${f(filterMs)} ms`);
      console.log(`  rows in the DOM while ${COUNT} are listed: ${scroll.domRows}`);
      const p95 = Math.max(wheel.p95Ms, scroll.p95Ms);
      const ticks = (ms: number) => Math.round(ms / RAF_TICK_MS);
      const onPace = ticks(p95) <= Math.max(ticks(FRAME_TARGET_MS), ticks(idleMs) + 1);
      console.log(`\n${renderMs <= RENDER_TARGET_MS ? 'PASS' : 'MISS'}  UI with ${COUNT} holders: first render <= ${RENDER_TARGET_MS} ms: ${f(renderMs)} ms`);
      console.log(
        `${onPace ? 'PASS' : 'MISS'}  UI with ${COUNT} holders: scroll p95 <= ${FRAME_TARGET_MS} ms, or within one ${RAF_TICK_MS} ms timestamp tick of the idle frame interval: ${f(p95)} ms (the browser's idle frame interval here: ${f(idleMs)} ms)`,
      );
    } finally {
      await context.close();
    }
  } finally {
    ui.kill('SIGINT');
    rmSync(profile, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  }
}

await main();

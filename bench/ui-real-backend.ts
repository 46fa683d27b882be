// The UI on the real backend at 100,000 holders: real processes hold 100,000 files, `holdwatch ui
// --watch` serves the renderer and the service over its WebSocket (token, zod checks on), and each
// round opens a page onto watching that directory. Times are the page's own, from its navigation
// start: page ready, the first message of holders in (the host's first scan of every process is in
// it), the first rows painted, every holder counted; then scroll frame times over the full list.
import { loadavg } from 'node:os';
import { median } from './stats.js';
import { createFixture } from './fixture.js';
import { scrollFrameCpu, type FrameCpu } from './ui-frame-cpu.js';
import {
  FRAME_TARGET_MS,
  RENDER_TARGET_MS,
  ms1,
  openBenchPage,
  passOrMiss,
  scrollOnPace,
  startHoldwatchUi,
  withBrowser,
  type ScrollTimes,
  type WatchArrival,
} from './ui-browser.js';

const ROUNDS = 3;
/** Python holders stay below the hard fd limit most machines give a process (often 20,000 or more). */
const MAX_FILES_PER_HOLDER = 19_000;

interface Round {
  arrival: WatchArrival;
  idleMs: number;
  wheel: ScrollTimes;
  flick: ScrollTimes;
  wheelCpu: FrameCpu;
  flickCpu: FrameCpu;
}

/** `holdwatch ui --watch` on a directory where real processes hold `holders` files; `use` gets its URL. */
export async function withWatchedHolders<T>(holders: number, use: (url: string, fixture: { processes: number; heldFds: number }) => Promise<T>): Promise<T> {
  const processes = Math.ceil(holders / MAX_FILES_PER_HOLDER);
  const fixture = await createFixture({ fileHolders: processes, filesPerHolder: Math.ceil(holders / processes), cwdEvery: processes + 1, noiseHolders: 0 });
  try {
    const ui = await startHoldwatchUi(['--watch', fixture.dir]);
    try {
      return await use(ui.url, { processes, heldFds: fixture.heldFds });
    } finally {
      ui.stop();
    }
  } finally {
    await fixture.dispose();
  }
}

export async function benchRealBackend(holders: number): Promise<void> {
  await withWatchedHolders(holders, async (url, { processes, heldFds }) => {
    const rounds = await withBrowser(async (context) => {
      const done: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const { page, bench } = await openBenchPage(context, url);
        const arrival = await bench.evaluate((b, n) => b.arrival(n), holders);
        const idleMs = await bench.evaluate((b) => b.idleFrames());
        const wheel = await bench.evaluate((b) => b.scroll(100));
        const flick = await bench.evaluate((b) => b.scroll(1000));
        const wheelCpu = await scrollFrameCpu(context, page, bench, 100);
        const flickCpu = await scrollFrameCpu(context, page, bench, 1000);
        done.push({ arrival, idleMs, wheel, flick, wheelCpu, flickCpu });
        await page.close();
      }
      return done;
    });
    printRounds(holders, processes, heldFds, rounds);
  });
}

function printRounds(holders: number, processes: number, heldFds: number, rounds: readonly Round[]): void {
  const spread = (pick: (r: Round) => number) => {
    const values = rounds.map(pick);
    return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
  };
  const line = (label: string, pick: (r: Round) => number) => {
    const s = spread(pick);
    console.log(`  ${label}: min ${ms1(s.min)} ms, median ${ms1(s.median)} ms, max ${ms1(s.max)} ms`);
    return s;
  };
  console.log(
    `\nui-volume: ${holders} holders on the REAL backend: ${heldFds} fds held by ${processes} Python processes, \`holdwatch ui --watch\` over its WebSocket; ${rounds.length} rounds`,
  );
  // The host, the browser and the page share the machine's cores: the times scale with what else runs.
  console.log(
    `  load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  const a = (r: Round) => r.arrival;
  line('page ready (start screen shown)', (r) => a(r).pageReadyMs);
  line('first holders message in (page load, start watch, the host scanning every process)', (r) => a(r).firstHoldersMessageMs ?? NaN);
  const firstRender = line("first rows painted after the first holders message (the UI's part)", (r) => a(r).firstRowMs - (a(r).firstHoldersMessageMs ?? NaN));
  line(`page open -> first rows painted`, (r) => a(r).firstRowMs);
  line(`page open -> all ${holders} holders counted`, (r) => a(r).allRowsMs);
  line('idle frame interval', (r) => r.idleMs);
  line('scroll +100 px a frame, p95', (r) => r.wheel.p95Ms);
  line('scroll +1000 px a frame, p95', (r) => r.flick.p95Ms);
  line('jump to the end', (r) => r.flick.jumpMs);
  // Thread time, not wall time: the page's own work per frame, apart from waiting for a core.
  line('main-thread CPU a frame, +100 px, median', (r) => r.wheelCpu.medianMs);
  line('main-thread CPU a frame, +100 px, p95', (r) => r.wheelCpu.p95Ms);
  line('main-thread CPU a frame, +1000 px, median', (r) => r.flickCpu.medianMs);
  line('main-thread CPU a frame, +1000 px, p95', (r) => r.flickCpu.p95Ms);
  const worstP95 = Math.max(...rounds.map((r) => Math.max(r.wheel.p95Ms, r.flick.p95Ms)));
  const worstIdle = Math.max(...rounds.map((r) => r.idleMs));
  console.log(`  rows in the DOM while ${holders} are listed: ${rounds[0]?.flick.domRows}`);
  console.log(
    `\n${passOrMiss(firstRender.max <= RENDER_TARGET_MS)}  UI with ${holders} holders, real backend: first rows painted <= ${RENDER_TARGET_MS} ms after the first holders message (worst round): ${ms1(firstRender.max)} ms`,
  );
  console.log(
    `${passOrMiss(scrollOnPace(worstP95, worstIdle))}  UI with ${holders} holders, real backend: scroll p95 <= ${FRAME_TARGET_MS} ms (worst round): ${ms1(worstP95)} ms (idle frame interval ${ms1(worstIdle)} ms)`,
  );
}

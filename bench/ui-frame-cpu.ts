// What a scroll costs the page's main thread in CPU time (the trace's thread time, not wall time):
// on a busy machine a frame's wall time is mostly waiting for a core, so this is the number that
// says whether the page's own work fits in a frame, whatever else the machine runs.
import type { BrowserContext, JSHandle, Page } from 'playwright-core';
import { median } from './stats.js';
import type { PageBench } from './ui-browser.js';

interface TraceEvent {
  name: string;
  ph: string;
  tid: number;
  /** Thread time, µs. */
  tdur?: number;
}

export interface FrameCpu {
  medianMs: number;
  p95Ms: number;
}

/** Scrolls as PageBench.scroll does, traced: per frame, the main thread's CPU in BeginMainFrame (scroll events, rAF, style, layout, paint). */
export async function scrollFrameCpu(context: BrowserContext, page: Page, bench: JSHandle<PageBench>, stepPx: number): Promise<FrameCpu> {
  const cdp = await context.newCDPSession(page);
  try {
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: 'blink,devtools.timeline', transferMode: 'ReportEvents' });
    await bench.evaluate((b, step) => b.scroll(step), stepPx);
    await cdp.send('Tracing.end');
    await complete;
    const mainThread = events.find((e) => e.name === 'FireAnimationFrame')?.tid;
    const frames = events
      .filter((e) => e.ph === 'X' && e.tid === mainThread && e.name === 'WebFrameWidgetImpl::BeginMainFrame')
      .map((e) => (e.tdur ?? 0) / 1000)
      .sort((a, b) => a - b);
    return { medianMs: median(frames), p95Ms: frames[Math.min(frames.length - 1, Math.floor(frames.length * 0.95))] ?? NaN };
  } finally {
    await cdp.detach();
  }
}

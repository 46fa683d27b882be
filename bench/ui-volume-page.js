// The page side of bench/ui-volume.ts, injected into the UI before it loads (plain JS: it runs in
// the browser, and the bench's Node project has no DOM types). Everything is timed in the page.
(() => {
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  /** The table's count: its first number ("100,000 holders", "99,990 holding · 10 no longer"). */
  const shownCount = () => Number((document.querySelector('[data-testid=row-count]')?.textContent ?? '').split(' ')[0].replace(/\D/g, '') || 0);

  // The real backend: when the first message carrying the watch's holders arrives on the WebSocket.
  // This listener is added in the constructor, so it runs before the app's own.
  let firstHoldersMessageMs = null;
  // The host closes a page that reads too slowly (1013): then the holders never all arrive.
  let closeCode = null;
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('close', (e) => (closeCode = e.code));
      this.addEventListener('message', (m) => {
        if (firstHoldersMessageMs === null && typeof m.data === 'string' && m.data.startsWith('{"event":{"channel":"watch"'))
          firstHoldersMessageMs = performance.now();
      });
    }
  };
  // When the page first showed its start screen, its first holder row and `expected` holders: seen
  // as the DOM changes, stamped at the next frame (when they are painted).
  const seen = { pageReadyMs: null, firstRowMs: null };
  const stamp = (key) => {
    seen[key] = 0;
    requestAnimationFrame(() => (seen[key] = performance.now()));
  };
  new MutationObserver(() => {
    if (seen.pageReadyMs === null && document.querySelector('#dir, [data-testid=row-count]')) stamp('pageReadyMs');
    if (seen.firstRowMs === null && document.querySelector('[role=row][data-pid]')) stamp('firstRowMs');
  }).observe(document, { childList: true, subtree: true });

  window.__hwBench = {
    /** Click Watch; time until the table says `expected` rows and shows the first ones. */
    async render(expected) {
      const t0 = performance.now();
      document.querySelector('button[type=submit]').click();
      while (!document.querySelector('[data-testid=row-count]')?.textContent?.startsWith(expected) || !document.querySelector('[role=row][data-pid]')) {
        await new Promise((r) => setTimeout(r, 1));
      }
      await frames();
      return performance.now() - t0;
    },
    /** After the page opened onto a watch (`holdwatch ui --watch`): when it was ready, got the holders, showed them. */
    async arrival(expected) {
      while ((!seen.firstRowMs || shownCount() < expected) && closeCode === null) await new Promise((r) => setTimeout(r, 1));
      await frame();
      return {
        pageReadyMs: seen.pageReadyMs,
        firstHoldersMessageMs,
        firstRowMs: seen.firstRowMs,
        allRowsMs: performance.now(),
        shown: shownCount(),
        closeCode,
      };
    },
    /** How long the DEMO backend took to invent its holders at page load (demo-service.ts's DEMO_HOLDERS_MEASURE), or null. */
    demoHoldersMs() {
      return performance.getEntriesByName('holdwatch-demo: holders invented')[0]?.duration ?? null;
    },
    /** Frame intervals with nothing to do: the floor the scroll numbers compare against. */
    async idleFrames() {
      const durations = [];
      let last = await frame();
      for (let i = 0; i < 60; i++) {
        const now = await frame();
        durations.push(now - last);
        last = now;
      }
      durations.sort((a, b) => a - b);
      return durations[Math.floor(durations.length / 2)];
    },
    /**
     * 120 steps of `stepPx`, one per frame, from the top: 100 px is a wheel notch, 1,000 px (36 rows) a
     * fast flick. From the top, because a scroller left at the end by the last call would not move.
     */
    async scroll(stepPx) {
      const scroller = document.querySelector('[data-testid=holders-scroller]');
      scroller.scrollTop = 0;
      await frames();
      const durations = [];
      let last = await frame();
      for (let i = 0; i < 120; i++) {
        scroller.scrollTop += stepPx;
        const now = await frame();
        durations.push(now - last);
        last = now;
      }
      const t0 = performance.now();
      scroller.scrollTop = scroller.scrollHeight;
      await frames();
      const jumpMs = performance.now() - t0;
      durations.sort((a, b) => a - b);
      const at = (q) => durations[Math.min(durations.length - 1, Math.floor(durations.length * q))];
      return {
        frames: durations.length,
        medianMs: at(0.5),
        p95Ms: at(0.95),
        maxMs: at(1),
        jumpMs,
        domRows: document.querySelectorAll('[role=row][data-pid]').length,
      };
    },
    async sortBy(column) {
      const t0 = performance.now();
      document.querySelector(`[role=columnheader].col-${column}`).click();
      await frames();
      return performance.now() - t0;
    },
    async filter(text) {
      const t0 = performance.now();
      const input = document.querySelector('input.filter');
      // React listens to the native input event; set the value through the prototype's setter.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, text);
      const before = document.querySelector('[data-testid=row-count]').textContent;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      // The filter is deferred (the input stays responsive): time until the filtered rows are shown.
      while (document.querySelector('[data-testid=row-count]').textContent === before) await new Promise((r) => setTimeout(r, 1));
      await frames();
      return performance.now() - t0;
    },
  };
})();

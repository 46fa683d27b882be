import { describe, expect, it } from 'vitest';
import type { Holder } from '../contract/holders.js';
import { holderRow as holder } from '../tests/support/holder-row.js';
import { ManualClock } from '../tests/support/manual-clock.js';
import type { ChangeFeed, ChangeNews, HolderSource, ScanRequest, ScanResult, WatchDir } from './platform.js';
import { THOROUGH_SCAN_MS, Watcher, type PollOutcome, type WatcherOptions } from './watch.js';

/** A scripted source: each scan returns the next holder list and records what it was asked. */
class ScriptedSource implements HolderSource {
  readonly platform = 'linux' as const;
  readonly requests: ScanRequest[] = [];
  /** When each scan was asked for, on the clock given. */
  readonly scannedAtMs: number[] = [];
  constructor(
    private readonly frames: Holder[][],
    private readonly clock?: ManualClock,
  ) {}
  async resolveWatchDir(input: string): Promise<WatchDir> {
    return { input, display: input, matchPrefix: input, caseInsensitive: false };
  }
  async scan(request: ScanRequest): Promise<ScanResult> {
    this.requests.push(request);
    if (this.clock) this.scannedAtMs.push(this.clock.now());
    const frame = this.frames[Math.min(this.requests.length - 1, this.frames.length - 1)]!;
    const holders = request.pids ? frame.filter((h) => request.pids!.includes(h.pid)) : frame;
    return { holders, denied: [], unnamed: [], processCount: 1, handleCount: holders.length };
  }
  async processInfo() {
    return null;
  }
  async dispose() {}
}

/** A change feed whose news the test sets before the look that should see it. */
class ScriptedFeed implements ChangeFeed {
  looks = 0;
  coversTree = true;
  next: ChangeNews = { underDirs: false, started: [], ended: [] };
  take(): ChangeNews {
    this.looks++;
    const news = this.next;
    this.next = { underDirs: false, started: [], ended: [] };
    return news;
  }
  dispose() {}
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const dir: WatchDir = { input: '/w', display: '/w', matchPrefix: '/w', caseInsensitive: false };

/** A watcher polling `focusPid` every 100 ms and the whole system every second, over a fixed world. */
function focusedWatcher(world: Holder[], focusPid: number, extra: Partial<WatcherOptions> = {}) {
  const clock = new ManualClock();
  const source = new ScriptedSource([world], clock);
  const watcher = new Watcher({
    source,
    dirs: [dir],
    clock,
    fullIntervalMs: 1000,
    focusIntervalMs: 100,
    focusPids: () => [focusPid],
    onPoll: () => {},
    onError: (e) => {
      throw e;
    },
    ...extra,
  });
  return { source, clock, watcher };
}

describe('Watcher', () => {
  it('with maxRetryDelayMs, waits twice as long after each failed poll, up to the cap, and back to the interval after a success', async () => {
    const clock = new ManualClock();
    const scanTimes: number[] = [];
    let failing = 5;
    const source = new ScriptedSource([[]]);
    const scan = source.scan.bind(source);
    source.scan = async (request) => {
      scanTimes.push(clock.now());
      if (failing-- > 0) throw Object.assign(new Error('EMFILE: too many open files, scandir /proc'), { code: 'EMFILE' });
      return scan(request);
    };
    const errors: unknown[] = [];
    const watcher = new Watcher({ source, dirs: [dir], clock, fullIntervalMs: 100, maxRetryDelayMs: 1000, onPoll: () => {}, onError: (e) => errors.push(e) });
    watcher.start();
    for (let i = 0; i < 100; i++) {
      clock.advance(50);
      await flush();
    }
    watcher.dispose();
    const gaps = scanTimes.slice(1).map((t, i) => t - scanTimes[i]!);
    expect(errors).toHaveLength(5);
    expect(gaps.slice(0, 6)).toEqual([200, 400, 800, 1000, 1000, 100]);
  });
  it('polls on the injected clock and emits appeared then gone', async () => {
    const a = holder(1, '/w/a');
    const source = new ScriptedSource([[], [a], [a], []]);
    const clock = new ManualClock();
    const outcomes: PollOutcome[] = [];
    const watcher = new Watcher({
      source,
      dirs: [dir],
      clock,
      fullIntervalMs: 100,
      onPoll: (o) => outcomes.push(o),
      onError: (e) => {
        throw e;
      },
    });
    watcher.start();
    for (let i = 0; i < 4; i++) {
      clock.advance(i === 0 ? 0 : 100);
      await flush();
    }
    expect(outcomes.map((o) => o.events.map((e) => `${e.type}:${e.holder.path}`))).toEqual([[], ['appeared:/w/a'], [], ['gone:/w/a']]);
    watcher.dispose();
    expect(clock.pendingTimers()).toBe(0);
  });

  it('polls focus pids often and the whole system at the full interval', async () => {
    const { source, clock, watcher } = focusedWatcher([holder(1, '/w/a'), holder(2, '/w/b')], 1);
    watcher.start();
    clock.advance(0);
    await flush();
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      await flush();
    }
    const kinds = source.requests.map((r) => (r.pids ? 'focus' : 'full'));
    expect(kinds[0]).toBe('full');
    expect(kinds.filter((k) => k === 'full').length).toBe(2);
    expect(kinds.filter((k) => k === 'focus').length).toBe(9);
    // A focus poll that does not see pid 2 must not call its holder gone.
    expect(
      watcher
        .current()
        .map((h) => h.pid)
        .sort(),
    ).toEqual([1, 2]);
    watcher.dispose();
  });

  it('scanNow runs a full scan immediately, queued behind none', async () => {
    const a = holder(1, '/w/a');
    const source = new ScriptedSource([[a]]);
    const watcher = new Watcher({ source, dirs: [dir], clock: new ManualClock(), fullIntervalMs: 60_000, onPoll: () => {}, onError: () => {} });
    const outcome = await watcher.scanNow();
    expect(outcome.full).toBe(true);
    expect(outcome.events.map((e) => e.type)).toEqual(['appeared']);
    watcher.dispose();
  });

  describe('with a change feed and a slowest interval', () => {
    /** A started watcher (its first scan done) over `world`, polling every 100 ms and slowing down to 800. */
    async function startIdle(world: Holder[], onPoll: (o: PollOutcome) => void = () => {}) {
      const clock = new ManualClock();
      const source = new ScriptedSource([world], clock);
      const feed = new ScriptedFeed();
      const watcher = new Watcher({
        source,
        dirs: [dir],
        clock,
        fullIntervalMs: 100,
        slowestIntervalMs: 800,
        changes: feed,
        onPoll,
        onError: (e) => {
          throw e;
        },
      });
      watcher.start();
      clock.advance(0);
      await flush();
      return { clock, source, feed, watcher };
    }

    async function advance(clock: ManualClock, ms: number) {
      for (let t = 0; t < ms; t += 100) {
        clock.advance(100);
        await flush();
      }
    }

    it('scans the whole system less often while nothing changes, and looks at the feed at the fast interval', async () => {
      const { clock, source, feed, watcher } = await startIdle([]);
      await advance(clock, 4000);
      // No scan at the looks between: 41 looks, 7 scans.
      expect(source.scannedAtMs).toEqual([0, 200, 600, 1400, 2200, 3000, 3800]);
      expect(source.requests.every((r) => r.pids === undefined)).toBe(true);
      expect(feed.looks).toBe(41);
      watcher.dispose();
      expect(clock.pendingTimers()).toBe(0);
    });

    it('scans the whole system at the next look after a change under the dirs, and speeds up', async () => {
      const world: Holder[] = [];
      const outcomes: PollOutcome[] = [];
      const { clock, source, feed, watcher } = await startIdle(world, (o) => outcomes.push(o));
      await advance(clock, 2300); // scans at 0, 200, 600, 1400, 2200; the next one due at 3000
      expect(watcher.fullScanIntervalMs()).toBe(800);
      world.push(holder(1, '/w/a'));
      feed.next = { underDirs: true, started: [], ended: [] };
      await advance(clock, 100);
      // An idle check shows it first; a thorough scan follows at once.
      expect(source.scannedAtMs.slice(-2)).toEqual([2400, 2400]);
      expect(outcomes.slice(-2).map((o) => o.events.map((e) => `${e.type}:${e.holder.path}`))).toEqual([['appeared:/w/a'], []]);
      expect(watcher.fullScanIntervalMs()).toBe(200);
      await advance(clock, 200);
      expect(source.scannedAtMs.at(-1)).toBe(2600);
      watcher.dispose();
    });

    it('scans alone the processes that started and the holders that ended; a holder among them brings back the fast pace', async () => {
      const world = [holder(1, '/w/old')];
      const { clock, source, feed, watcher } = await startIdle(world);
      await advance(clock, 2400); // scans at 0 (old appears), 100, 300, 700, 1500, 2300
      expect(watcher.fullScanIntervalMs()).toBe(800);
      world.push(holder(7, '/w/new'));
      feed.next = { underDirs: false, started: [7], ended: [8, 1] };
      await advance(clock, 100);
      // Pid 8 held nothing: its end changes nothing; pid 1 held something.
      expect(source.requests.at(-1)!.pids).toEqual([7, 1]);
      expect(
        watcher
          .current()
          .map((h) => h.path)
          .sort(),
      ).toEqual(['/w/new', '/w/old']);
      expect(watcher.fullScanIntervalMs()).toBe(100);
      watcher.dispose();
    });

    it('asks for an idle check after a thorough scan only while nothing happened under the dirs, and not for ever', async () => {
      const { clock, source, feed, watcher } = await startIdle([]);
      await advance(clock, 2300); // scans at 0, 200, 600, 1400, 2200
      feed.next = { underDirs: true, started: [], ended: [] };
      await advance(clock, 100); // at 2400: an idle check first, then a thorough scan
      await advance(clock, 900); // at 2600, 3000 (the thorough scan found nothing new: 200, then 400)
      const kinds = () => source.requests.map((r) => (r.idleCheck ? 'idle' : 'thorough'));
      expect(kinds()).toEqual(['thorough', 'idle', 'idle', 'idle', 'idle', 'idle', 'thorough', 'idle', 'idle']);
      await advance(clock, THOROUGH_SCAN_MS);
      expect(
        kinds()
          .slice(9)
          .filter((k) => k === 'thorough'),
      ).toHaveLength(1);
      feed.coversTree = false;
      const before = source.requests.length;
      await advance(clock, 4000);
      expect(
        kinds()
          .slice(before)
          .every((k) => k === 'thorough'),
      ).toBe(true);
      watcher.dispose();
    });
  });

  it("a run's watch makes its full scans idle checks after the first, one thorough every THOROUGH_SCAN_MS and at scanNow", async () => {
    const { source, clock, watcher } = focusedWatcher([], 42, { strangersByIdleCheck: true });
    watcher.start();
    const fullScans = () => source.requests.filter((r) => r.pids === undefined).map((r) => (r.idleCheck ? 'idle' : 'thorough'));
    for (let t = 0; t <= 3000; t += 100) {
      clock.advance(t === 0 ? 0 : 100);
      await flush();
    }
    expect(fullScans()).toEqual(['thorough', 'idle', 'idle', 'idle']);
    // The run's own process is walked whole at every focus poll between them.
    expect(source.requests.filter((r) => r.pids?.includes(42) && r.idleCheck === undefined).length).toBeGreaterThan(20);
    await watcher.scanNow();
    expect(fullScans().at(-1)).toBe('thorough');
    for (let t = 0; t < THOROUGH_SCAN_MS + 1000; t += 100) {
      clock.advance(100);
      await flush();
    }
    expect(
      fullScans()
        .slice(5)
        .filter((k) => k === 'thorough'),
    ).toHaveLength(1);
    watcher.dispose();
  });

  it("a run's last scan is an idle check and its own processes walked whole, thorough once THOROUGH_SCAN_MS passed", async () => {
    const { source, clock, watcher } = focusedWatcher([], 42, { strangersByIdleCheck: true });
    watcher.start();
    clock.advance(0);
    await flush();
    const kindOf = (r: ScanRequest) => (r.pids ? `pids ${r.pids.join(',')}` : r.idleCheck ? 'idle' : 'thorough');
    expect(source.requests.map(kindOf)).toEqual(['thorough']);
    await watcher.scanLast();
    expect(source.requests.slice(1).map(kindOf)).toEqual(['idle', 'pids 42']);
    watcher.dispose(); // no scan of its own meanwhile
    clock.advance(THOROUGH_SCAN_MS);
    const asked = source.requests.length;
    await watcher.scanLast();
    expect(source.requests.slice(asked).map(kindOf)).toEqual(['thorough']);
  });

  it("a watch that is not a run's makes its last scan thorough", async () => {
    const { source, clock, watcher } = focusedWatcher([], 42);
    watcher.start();
    clock.advance(0);
    await flush();
    watcher.dispose();
    const asked = source.requests.length;
    await watcher.scanLast();
    expect(source.requests.slice(asked).map((r) => (r.pids ? 'pids' : r.idleCheck ? 'idle' : 'thorough'))).toEqual(['thorough']);
  });

  it('with focusFirst, polls the focus pids before its first scan of the whole system', async () => {
    const { source, clock, watcher } = focusedWatcher([holder(42, '/w/a')], 42, { focusFirst: true });
    watcher.start();
    clock.advance(0);
    await flush();
    expect(source.requests.slice(0, 2).map((r) => r.pids ?? 'whole system')).toEqual([[42], 'whole system']);
    watcher.dispose();
  });

  it('scanNow brings back the fast pace (a failure line, a run that starts)', async () => {
    const clock = new ManualClock();
    const source = new ScriptedSource([[]], clock);
    const watcher = new Watcher({ source, dirs: [dir], clock, fullIntervalMs: 100, slowestIntervalMs: 1000, onPoll: () => {}, onError: () => {} });
    watcher.start();
    for (let i = 0; i < 20; i++) {
      clock.advance(100);
      await flush();
    }
    expect(watcher.fullScanIntervalMs()).toBe(1000);
    await watcher.scanNow();
    expect(watcher.fullScanIntervalMs()).toBe(200);
    watcher.dispose();
  });
});

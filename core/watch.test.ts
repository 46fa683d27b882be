import { describe, expect, it } from 'vitest';
import type { Holder } from '../contract/holders.js';
import { ManualClock } from './clock.js';
import type { HolderSource, ScanRequest, ScanResult, WatchDir } from './platform.js';
import { Watcher, type PollOutcome } from './watch.js';

function holder(pid: number, path: string, over: Partial<Holder> = {}): Holder {
  return {
    pid,
    ppid: 1,
    processStartedAtMs: 1000,
    processName: 'p',
    commandLine: 'p',
    user: 'u',
    kind: 'file',
    path,
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
    ...over,
  };
}

/** A scripted source: each scan returns the next holder list and records what it was asked. */
class ScriptedSource implements HolderSource {
  readonly platform = 'linux' as const;
  readonly requests: ScanRequest[] = [];
  constructor(private readonly frames: Holder[][]) {}
  async resolveWatchDir(input: string): Promise<WatchDir> {
    return { input, display: input, matchPrefix: input, caseInsensitive: false };
  }
  async scan(request: ScanRequest): Promise<ScanResult> {
    this.requests.push(request);
    const frame = this.frames[Math.min(this.requests.length - 1, this.frames.length - 1)]!;
    const holders = request.pids ? frame.filter((h) => request.pids!.includes(h.pid)) : frame;
    return { holders, denied: [], unnamed: [], processCount: 1, handleCount: holders.length };
  }
  async processInfo() {
    return null;
  }
  async dispose() {}
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const dir: WatchDir = { input: '/w', display: '/w', matchPrefix: '/w', caseInsensitive: false };

describe('Watcher', () => {
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
    const source = new ScriptedSource([[holder(1, '/w/a'), holder(2, '/w/b')]]);
    const clock = new ManualClock();
    const watcher = new Watcher({
      source,
      dirs: [dir],
      clock,
      fullIntervalMs: 1000,
      focusIntervalMs: 100,
      focusPids: () => [1],
      onPoll: () => {},
      onError: (e) => {
        throw e;
      },
    });
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
});

import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../contract/journal.js';
import type { RunEvent } from '../../contract/runs.js';
import { RunEventFeed } from './run-events.js';
import { RunRecorder } from './run-recorder.js';
import { pytestHolder, runStartEntry } from '../../tests/support/recorder-journal.js';

const T0 = Date.UTC(2026, 11, 4, 12, 0, 0);

const holder = pytestHolder(10, '/w/a.log', T0 - 1000);
const member = { ancestry: [{ pid: 10, name: 'python3', commandLine: 'python3 -m pytest' }], byTagOnly: false };

const start = runStartEntry(T0);
const failure = (atMs: number, text: string): JournalEntry => ({
  t: 'failure',
  atMs,
  scannedAtMs: atMs,
  text,
  path: '/w',
  kind: 'EBUSY',
  code: 16,
  holderKeys: ['k'],
  test: 't1',
});

/** Timers fired by hand, so the pacing is seen without waiting. */
function handClock() {
  const due: (() => void)[] = [];
  return {
    setTimeout: (fn: () => void) => {
      due.push(fn);
      return () => void due.splice(due.indexOf(fn), 1);
    },
    fire: () => due.splice(0).forEach((fn) => fn()),
    pending: () => due.length,
  };
}

/** A feed over a real recorder, the way the supervisor drives it: apply, then tell the feed. */
function feedOf(clock = handClock()) {
  const recorder = new RunRecorder();
  let builds = 0;
  const counted = {
    record: () => (builds++, recorder.record()),
    attributedHolder: (key: string) => recorder.attributedHolder(key),
    lastFailure: () => recorder.lastFailure(),
  };
  const feed = new RunEventFeed(counted, clock, (error) => {
    throw error;
  });
  const write = (entry: JournalEntry) => {
    recorder.apply(entry);
    feed.entry(entry);
  };
  return { feed, write, recorder, clock, builds: () => builds };
}

describe('RunEventFeed', () => {
  it("gives a listener that comes after the start the run's start first", () => {
    const { feed, write } = feedOf();
    write(start);
    const heard: RunEvent[] = [];
    feed.on((e) => heard.push(e));
    expect(heard).toEqual([{ type: 'started', command: ['pytest'], cwd: '/src', watched: ['/w'] }]);
  });

  it('attributes each failure alone, as the whole record does, and sends the record at once after it', () => {
    const { feed, write, recorder, builds } = feedOf();
    const heard: RunEvent[] = [];
    feed.on((e) => heard.push(e));
    write(start);
    write({ t: 'test', event: { type: 'test-start', name: 't1', atMs: T0 + 100 } });
    write({ t: 'appeared', atMs: T0 + 200, key: 'k', holder, member });
    write(failure(T0 + 300, 'first'));
    write(failure(T0 + 400, 'second'));
    const failures = heard.filter((e) => e.type === 'failure').map((e) => e.failure);
    expect(failures).toEqual(recorder.record().failures);
    // One whole record per failure (the pacing's), never one more to find the failure itself.
    expect(builds()).toBe(2);
    expect(heard.filter((e) => e.type === 'record')).toHaveLength(2);
  });

  it("sends a holder whose process exec'd as changed, attributed as the record has it now", () => {
    const { feed, write } = feedOf();
    const heard: RunEvent[] = [];
    feed.on((e) => heard.push(e));
    write(start);
    write({ t: 'appeared', atMs: T0 + 200, key: 'k', holder, member });
    write({ t: 'changed', atMs: T0 + 300, key: 'k', holder: { ...holder, processName: 'tail', commandLine: 'tail -f a.log' } });
    const changes = heard.flatMap((e) => (e.type === 'holder' ? [[e.change, e.holder.processName, e.holder.attribution.ancestry[0]?.name]] : []));
    expect(changes).toEqual([
      ['appeared', 'python3', 'python3'],
      ['changed', 'tail', 'tail'],
    ]);
  });

  it('paces the record: one per period whatever the number of entries, none after close', () => {
    const { feed, write, clock } = feedOf();
    const heard: RunEvent[] = [];
    feed.on((e) => heard.push(e));
    write(start);
    write({ t: 'appeared', atMs: T0 + 200, key: 'k', holder, member });
    write({ t: 'gone', atMs: T0 + 300, key: 'k', lastSeenAtMs: T0 + 250 });
    expect(heard.filter((e) => e.type === 'record')).toHaveLength(0);
    clock.fire();
    expect(heard.filter((e) => e.type === 'record')).toHaveLength(1);
    expect(heard.filter((e) => e.type === 'holder').map((e) => e.type === 'holder' && e.change)).toEqual(['appeared', 'gone']);
    write({ t: 'test', event: { type: 'test-start', name: 't2', atMs: T0 + 400 } });
    feed.close();
    clock.fire();
    expect(heard.filter((e) => e.type === 'record')).toHaveLength(1);
  });

  it('builds nothing while nobody listens (`holdwatch run` in a terminal)', () => {
    const { write, builds, clock } = feedOf();
    write(start);
    write({ t: 'appeared', atMs: T0 + 200, key: 'k', holder, member });
    write(failure(T0 + 300, 'first'));
    expect(builds()).toBe(0);
    expect(clock.pending()).toBe(0);
  });
});

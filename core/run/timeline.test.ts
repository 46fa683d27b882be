import { describe, expect, it } from 'vitest';
import { TestTimeline } from './timeline.js';

describe('TestTimeline', () => {
  it('records phases and says a teardown decided the outcome', () => {
    const t = new TestTimeline();
    t.apply({ type: 'test-start', name: 'a', atMs: 10 });
    t.apply({ type: 'phase', name: 'a', phase: 'call', outcome: 'passed', atMs: 20 });
    t.apply({ type: 'phase', name: 'a', phase: 'teardown', outcome: 'error', atMs: 30 });
    t.apply({ type: 'test-end', name: 'a', outcome: 'error', atMs: 31 });
    expect(t.records()[0]).toMatchObject({ name: 'a', outcome: 'error', phase: 'teardown', phases: { call: 'passed', teardown: 'error' } });
  });

  it('answers which test ran at a moment, and knows tests only reported at their end', () => {
    const t = new TestTimeline();
    t.apply({ type: 'test-start', name: 'a', atMs: 10 });
    t.apply({ type: 'test-end', name: 'a', outcome: 'passed', atMs: 20 });
    t.apply({ type: 'test-end', name: 'tap-only', outcome: 'failed', atMs: 40 });
    expect([t.testAt(5), t.testAt(15), t.testAt(25), t.testAt(40)]).toEqual([null, 'a', null, 'tap-only']);
    expect(t.endOf('a')).toBe(20);
  });

  it("keeps each phase's span from its first start to its last report, listed in the order they began", () => {
    const t = new TestTimeline();
    t.apply({ type: 'test-start', name: 'a', atMs: 0 });
    t.apply({ type: 'phase', name: 'a', phase: 'teardown', atMs: 0 });
    t.apply({ type: 'phase', name: 'a', phase: 'setup', atMs: 1000 });
    t.apply({ type: 'phase', name: 'a', phase: 'teardown', outcome: 'passed', atMs: 1001 });
    t.apply({ type: 'phase', name: 'a', phase: 'setup', atMs: 1002 });
    t.apply({ type: 'phase', name: 'a', phase: 'setup', outcome: 'skipped', atMs: 1003 });
    t.apply({ type: 'test-end', name: 'a', outcome: 'skipped', atMs: 1004 });
    const iso = (ms: number) => new Date(ms).toISOString();
    const [record] = t.records();
    expect(Object.entries(record!.phaseTimes!)).toEqual([
      ['teardown', { startedAt: iso(0), endedAt: iso(1001) }],
      ['setup', { startedAt: iso(1000), endedAt: iso(1003) }],
    ]);
    expect(Object.entries(record!.phases!)).toEqual([
      ['teardown', 'passed'],
      ['setup', 'skipped'],
    ]);
  });

  it('keeps every test its own phase times past the first few hundred tests', () => {
    const t = new TestTimeline();
    for (let i = 0; i < 1000; i++) {
      t.apply({ type: 'test-start', name: `t${i}`, atMs: i * 10 });
      t.apply({ type: 'test-end', name: `t${i}`, outcome: 'passed', atMs: i * 10 + 5 }, [
        ['call', i * 10 + 1],
        ['call', i * 10 + 4, 'passed'],
      ]);
    }
    const records = t.records();
    expect(records.map((r) => r.phaseTimes!.call!.endedAt)).toEqual(records.map((_, i) => new Date(i * 10 + 4).toISOString()));
  });
});

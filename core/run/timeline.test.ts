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
});

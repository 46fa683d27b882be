import { describe, expect, it } from 'vitest';
import { toTestEvent } from './events.js';
import { ProbeEventsParser } from './probe-events.js';

describe('ProbeEventsParser', () => {
  it('reads events split across chunks and rejects what is not an event', () => {
    const p = new ProbeEventsParser();
    const a = JSON.stringify({ type: 'test-start', name: 't::a', atMs: 1 });
    const b = JSON.stringify({ type: 'phase', name: 't::a', phase: 'teardown', outcome: 'error', atMs: 2, detail: 'x' });
    expect(p.push(`${a}\n${b.slice(0, 10)}`).events).toEqual([{ type: 'test-start', name: 't::a', atMs: 1 }]);
    expect(p.push(`${b.slice(10)}\nnot json\n{"type":"explode","name":"x","atMs":1}\n`).events).toEqual([
      { type: 'phase', name: 't::a', phase: 'teardown', outcome: 'error', atMs: 2, detail: 'x' },
    ]);
    expect(p.end().events).toEqual([]);
    expect(p.rejectedLines).toBe(2);
  });
});

describe('toTestEvent', () => {
  it('drops unknown fields and refuses wrong types', () => {
    expect(toTestEvent({ type: 'run-end', name: 'r', atMs: 5, outcome: 'passed', extra: 1 })).toEqual({ type: 'run-end', name: 'r', atMs: 5, outcome: 'passed' });
    expect(toTestEvent({ type: 'phase', name: 'r', atMs: 5, phase: 'body' })).toBeUndefined();
    expect(toTestEvent({ type: 'test-end', name: 'r', atMs: '5' })).toBeUndefined();
    expect(toTestEvent({ type: 'test-end', name: 'r', atMs: Number.NaN })).toBeUndefined();
    expect(toTestEvent(null)).toBeUndefined();
  });
});

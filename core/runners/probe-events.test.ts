import { describe, expect, it } from 'vitest';
import { TestEventSchema } from '../../contract/runs.js';
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

describe('ProbeEventsParser and the phases a test-end line carries', () => {
  it('reads them as the phase events before the end, each with its own time', () => {
    const p = new ProbeEventsParser();
    const end = { type: 'test-end', name: 't::a', outcome: 'passed', atMs: 9, inTestProcess: true };
    const line = JSON.stringify({
      ...end,
      phases: [
        ['setup', 1],
        ['setup', 2, 'passed'],
        ['teardown', 3, 'skipped'],
      ],
    });
    expect(p.push(`${line}\n`).events).toEqual([
      { type: 'phase', name: 't::a', phase: 'setup', atMs: 1, inTestProcess: true },
      { type: 'phase', name: 't::a', phase: 'setup', outcome: 'passed', atMs: 2, inTestProcess: true },
      { type: 'phase', name: 't::a', phase: 'teardown', outcome: 'skipped', atMs: 3, inTestProcess: true },
      end,
    ]);
    expect(p.rejectedLines).toBe(0);
  });

  it('keeps them folded in the end for the journal, and an end without any as it is', () => {
    const p = new ProbeEventsParser();
    const end = { type: 'test-end', name: 't::a', outcome: 'passed', atMs: 9, inTestProcess: true };
    const phases = [
      ['call', 1],
      ['call', 2, 'passed'],
    ];
    const lines = [JSON.stringify({ ...end, phases }), JSON.stringify({ ...end, phases: [] }), JSON.stringify(end)];
    expect(p.pushFolded(`${lines.join('\n')}\n`)).toEqual([{ event: end, phases }, { event: end }, { event: end }]);
    expect(p.rejectedLines).toBe(0);
  });

  it('refuses the whole line when one of them is not a phase', () => {
    const p = new ProbeEventsParser();
    const bad: unknown[] = [
      { setup: 1 },
      [['body', 1]],
      [['setup', '1']],
      [['setup', 1, 'flaky']],
      [['setup', 1, null]],
      [['setup']],
      [['setup', 1, 'passed', 4]],
    ];
    const lines = bad.map((phases) => JSON.stringify({ type: 'test-end', name: 't', atMs: 5, phases }));
    expect(p.push(`${lines.join('\n')}\n`).events).toEqual([]);
    expect(p.rejectedLines).toBe(bad.length);
  });
});

describe('toTestEvent', () => {
  it('drops unknown fields and refuses wrong types', () => {
    expect(toTestEvent({ type: 'run-end', name: 'r', atMs: 5, outcome: 'passed', extra: 1 })).toEqual({
      type: 'run-end',
      name: 'r',
      atMs: 5,
      outcome: 'passed',
    });
    expect(toTestEvent({ type: 'phase', name: 'r', atMs: 5, phase: 'body' })).toBeUndefined();
    expect(toTestEvent({ type: 'test-end', name: 'r', atMs: '5' })).toBeUndefined();
    expect(toTestEvent({ type: 'test-end', name: 'r', atMs: Number.NaN })).toBeUndefined();
    expect(toTestEvent(null)).toBeUndefined();
  });
});

describe('toTestEvent and the contract', () => {
  // The hand-written check keeps zod off the run's start-up path; the schema is still the source.
  const samples: unknown[] = [
    { type: 'test-start', name: 't', atMs: 1 },
    { type: 'phase', name: 't', atMs: 1, phase: 'teardown', outcome: 'error', detail: 'x' },
    { type: 'run-end', name: 'r', atMs: 5, outcome: 'passed', extra: 1 },
    { type: 'phase', name: 'r', atMs: 5, phase: 'body' },
    { type: 'test-end', name: 'r', atMs: 5, outcome: 'flaky' },
    { type: 'test-end', name: 'r', atMs: '5' },
    { type: 'test-end', name: 'r', atMs: Number.POSITIVE_INFINITY },
    { type: 'test-end', name: 3, atMs: 5 },
    { type: 'test-end', name: 'r', atMs: 5, detail: 7 },
    { type: 'test-start', name: 't', atMs: 1, inTestProcess: true },
    { type: 'test-start', name: 't', atMs: 1, inTestProcess: 'yes' },
    { type: 'explode', name: 'r', atMs: 5 },
    { name: 'r', atMs: 5 },
    'test-end',
    null,
  ];
  it.each(samples.map((s) => [JSON.stringify(s) ?? String(s), s]))("gives the schema's answer for %s", (_, sample) => {
    const parsed = TestEventSchema.safeParse(sample);
    expect(toTestEvent(sample)).toEqual(parsed.success ? parsed.data : undefined);
  });
});

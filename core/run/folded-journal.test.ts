import { describe, expect, it } from 'vitest';
import { parseJournal, type FoldedPhase, type JournalEntry } from '../../contract/journal.js';
import type { RunEvent, TestEvent } from '../../contract/runs.js';
import { phaseEventsOf } from '../runners/folded-phases.js';
import { RunEventFeed } from './run-events.js';
import { RunRecorder } from './run-recorder.js';
import { pytestHolder, runStartEntry } from '../../tests/support/recorder-journal.js';

const T0 = Date.UTC(2026, 11, 5, 10, 0, 0);
const stamp = { inTestProcess: true };

const start = (name: string, atMs: number): TestEvent => ({ type: 'test-start', name, atMs, ...stamp });
const end = (name: string, atMs: number, outcome: 'passed' | 'error'): TestEvent => ({ type: 'test-end', name, atMs, outcome, ...stamp });
const allPassed = (from: number): FoldedPhase[] => [
  ['setup', from],
  ['setup', from + 1, 'passed'],
  ['call', from + 2],
  ['call', from + 3, 'passed'],
  ['teardown', from + 4],
  ['teardown', from + 5, 'passed'],
];

/**
 * A short pytest run as the journal now has it (each test's end carries the phases that did not fail;
 * a failing teardown's report on a line of its own, after the phases before it), beside the same run
 * with one entry per phase, as journals were written before phases were folded.
 */
function journals(): { folded: JournalEntry[]; perPhase: JournalEntry[] } {
  const holder = pytestHolder(10, '/w/a.log', T0 - 1000);
  const member = { ancestry: [{ pid: 10, name: 'python3', commandLine: 'python3 -m pytest' }], byTagOnly: false };
  const failingTeardown: TestEvent = { type: 'phase', name: 't::b', phase: 'teardown', atMs: T0 + 205, outcome: 'error', detail: 'EBUSY', ...stamp };
  const bPhases: FoldedPhase[] = [
    ['setup', T0 + 200],
    ['setup', T0 + 201, 'passed'],
    ['call', T0 + 202],
    ['call', T0 + 203, 'passed'],
    ['teardown', T0 + 204],
  ];
  const folded: JournalEntry[] = [
    runStartEntry(T0),
    { t: 'test', event: start('t::a', T0 + 100) },
    { t: 'appeared', atMs: T0 + 102, key: 'k', holder, member },
    { t: 'test', event: end('t::a', T0 + 106, 'passed'), phases: allPassed(T0 + 100) },
    { t: 'test', event: start('t::b', T0 + 200) },
    // The plugin writes the phases before a failure as lines of their own, then the failure.
    ...phaseEventsOf(end('t::b', 0, 'error'), bPhases).map((event): JournalEntry => ({ t: 'test', event })),
    { t: 'test', event: failingTeardown },
    { t: 'test', event: end('t::b', T0 + 206, 'error') },
    // A test whose start no line told (a runner that only says its end): its first phase starts it.
    { t: 'test', event: end('t::c', T0 + 306, 'passed'), phases: allPassed(T0 + 300) },
    { t: 'run-end', atMs: T0 + 400, exitCode: 1, lastSeen: { k: T0 + 350 } },
  ];
  const perPhase = folded.flatMap((entry): JournalEntry[] =>
    entry.t === 'test' && entry.phases
      ? [...phaseEventsOf(entry.event, entry.phases).map((event): JournalEntry => ({ t: 'test', event })), { t: 'test', event: entry.event }]
      : [entry],
  );
  return { folded, perPhase };
}

function replay(entries: readonly JournalEntry[]): { recorder: RunRecorder; heard: RunEvent[] } {
  const recorder = new RunRecorder();
  const feed = new RunEventFeed(recorder, { setTimeout: () => () => {} }, (error) => {
    throw error;
  });
  const heard: RunEvent[] = [];
  feed.on((event) => heard.push(event));
  for (const entry of entries) {
    recorder.apply(entry);
    feed.entry(entry);
  }
  return { recorder, heard };
}

describe('a journal with the phases folded into test ends', () => {
  it('makes the same record as the journal with an entry per phase: tests, phase times, verdicts', () => {
    const { folded, perPhase } = journals();
    const record = replay(folded).recorder.record();
    expect(record).toEqual(replay(perPhase).recorder.record());
    expect(record.tests.map((t) => [t.name, t.outcome, t.phase, t.phases])).toEqual([
      ['t::a', 'passed', undefined, { setup: 'passed', call: 'passed', teardown: 'passed' }],
      ['t::b', 'error', 'teardown', { setup: 'passed', call: 'passed', teardown: 'error' }],
      ['t::c', 'passed', undefined, { setup: 'passed', call: 'passed', teardown: 'passed' }],
    ]);
    expect(record.tests[0]!.phaseTimes!.teardown).toEqual({ startedAt: new Date(T0 + 104).toISOString(), endedAt: new Date(T0 + 105).toISOString() });
    expect(record.tests[2]!.startedAt).toBe(new Date(T0 + 300).toISOString());
  });

  it('tells a front end every phase event, then the end, as the journal with an entry per phase does', () => {
    const { folded, perPhase } = journals();
    const tests = (heard: RunEvent[]) => heard.filter((e) => e.type === 'test');
    expect(tests(replay(folded).heard)).toEqual(tests(replay(perPhase).heard));
    expect(tests(replay(folded).heard)).toHaveLength(23);
  });

  it('reads back from disk, beside entries written before phases were folded; a bad phase refuses its entry', () => {
    const { folded, perPhase } = journals();
    const lines = [...folded, ...perPhase.slice(1)].map((e) => JSON.stringify(e));
    const bad = { t: 'test', event: end('t::d', T0 + 500, 'passed'), phases: [['body', T0 + 499, 'passed']] };
    const { entries, rejected } = parseJournal([...lines, JSON.stringify(bad)]);
    expect(entries).toEqual([...folded, ...perPhase.slice(1)]);
    expect(rejected).toBe(1);
  });
});

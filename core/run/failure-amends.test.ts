// A runner's teardown event and the output line that says what failed arrive in either order under
// load: the recorded failure says what the line says either way, and its test is the event's.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../contract/journal.js';
import { detectFailure } from '../signatures/failure-line.js';
import { FailureAmends, type FailureSlot } from './failure-amends.js';
import { RunRecorder } from './run-recorder.js';

const T0 = Date.UTC(2026, 11, 1, 12, 0, 0);
const LINE = "# rm: cannot remove '/w/work-1': Directory not empty";
const generic = { kind: 'teardown-error', code: null, path: null };

function recorder(): RunRecorder {
  const r = new RunRecorder();
  r.apply({
    t: 'run-start',
    runId: 'r',
    command: ['bats'],
    cwd: '/',
    watched: ['/w'],
    platform: 'linux',
    atMs: T0,
    versions: { holdwatch: '0', node: 'v24', os: 'linux' },
  });
  return r;
}

const failureEntry = (slot: FailureSlot): JournalEntry => ({
  t: 'failure',
  atMs: slot.atMs,
  text: slot.line,
  path: slot.match.path,
  kind: slot.match.kind,
  code: slot.match.code,
  holderKeys: [],
  test: slot.test,
});

describe('FailureAmends', () => {
  it('the line after the event, before its entry is written: the entry says what the line says', () => {
    const journal: JournalEntry[] = [];
    const amends = new FailureAmends(
      (e) => journal.push(e),
      () => T0 + 100,
      2000,
    );
    const slot: FailureSlot = { atMs: T0, test: 'starts the indexer', line: 'teardown of starts the indexer failed', match: generic, written: false };
    amends.opened(slot);
    amends.sayWhat(LINE, detectFailure(LINE)!);
    expect(journal).toEqual([]);
    expect(failureEntry(slot)).toMatchObject({ kind: 'directory-not-empty', path: '/w/work-1', text: LINE, test: 'starts the indexer' });
  });

  it('the line after the entry is written: a failure-said entry, which the record applies', () => {
    const r = recorder();
    const amends = new FailureAmends(
      (e) => r.apply(e),
      () => T0 + 100,
      2000,
    );
    const slot: FailureSlot = { atMs: T0, test: 'starts the indexer', line: 'teardown of starts the indexer failed', match: generic, written: false };
    amends.opened(slot);
    r.apply(failureEntry(slot));
    slot.written = true;
    amends.sayWhat(LINE, detectFailure(LINE)!);
    expect(r.record().failures.map((f) => [f.kind, f.path, f.test])).toEqual([['directory-not-empty', '/w/work-1', 'starts the indexer']]);
  });

  it('a failure that said what it was is not rewritten by a later line, nor one past the merge window', () => {
    const amends = new FailureAmends(
      () => {},
      () => T0 + 100,
      2000,
    );
    const said: FailureSlot = { atMs: T0, test: null, line: LINE, match: detectFailure(LINE)!, written: false };
    amends.opened(said);
    amends.sayWhat('OSError: [Errno 16] Device or resource busy: /w/x', detectFailure('OSError: [Errno 16] Device or resource busy: /w/x')!);
    expect(said.line).toBe(LINE);
    const late = new FailureAmends(
      () => {},
      () => T0 + 5000,
      2000,
    );
    const slot: FailureSlot = { atMs: T0, test: 't', line: 'teardown of t failed', match: generic, written: false };
    late.opened(slot);
    late.sayWhat(LINE, detectFailure(LINE)!);
    expect(slot.match).toBe(generic);
  });
});

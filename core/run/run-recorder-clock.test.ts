// Moments (a file's birth, a sighting) placed on the runner's own clock: events the test's process
// stamped are exact and compared as they are; only events read from output are taken as stamped late.
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../contract/journal.js';
import { POSIX_STYLE } from '../paths.js';
import { replayedRun } from '../../tests/support/recorder-journal.js';
import { findLeftovers } from './leftovers.js';

const START = Date.UTC(2026, 11, 4, 10, 0, 0);

/** Five back-to-back 4 ms tests, t1..t5, from START + 100; `inTestProcess` as their stamps say. */
function fiveShortTests(inTestProcess: boolean): JournalEntry[] {
  return [1, 2, 3, 4, 5].flatMap((n): JournalEntry[] => {
    const from = START + 100 + (n - 1) * 4;
    const stamp = inTestProcess ? { inTestProcess } : {};
    return [
      { t: 'test', event: { type: 'test-start', name: `t${n}`, atMs: from, ...stamp } },
      { t: 'test', event: { type: 'test-end', name: `t${n}`, atMs: from + 3.5, outcome: 'passed', ...stamp } },
    ];
  });
}

/** Each test writes one run file into a store, 1 ms into the test. */
const storeFiles = [1, 2, 3, 4, 5].map((n) => ({ path: `/w/store/run-${n}.json`, createdAtMs: START + 100 + (n - 1) * 4 + 1 }));

describe('leftovers placed on the runner’s own clock', () => {
  it('each file of a quiet pytest run lands on the test that wrote it, not the last one', () => {
    const recorder = replayedRun(START, fiveShortTests(true));
    const leftovers = findLeftovers(storeFiles, (ms) => recorder.placeAt(ms), POSIX_STYLE);
    expect(leftovers.map((l) => l.createdDuring)).toEqual(['t1', 't2', 't3', 't4', 't5']);
  });

  it('events read from output (TAP, go test) are still taken as stamped late', () => {
    const recorder = replayedRun(START, fiveShortTests(false));
    expect(recorder.testAt(START + 100 + 1)).not.toBe('t1');
  });
});

describe('birth times on the filesystem’s coarse clock', () => {
  it('each file lands on its test though its stamp reads up to one 4 ms tick early', () => {
    // The same five writes, as ext4 stamps them with 4 ms ticks at START + 98, 102, ...: each birth
    // reads 3 ms before the write, inside the previous test (or before the first).
    const stamped = storeFiles.map((f) => ({ ...f, createdAtMs: f.createdAtMs - 3 }));
    const recorder = replayedRun(START, fiveShortTests(true));
    const placed = (tickMs: number) => findLeftovers(stamped, (ms) => recorder.placeAt(ms), POSIX_STYLE, tickMs).map((l) => l.createdDuring);
    expect(placed(4)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(placed(0)).toEqual([null, 't1', 't2', 't3', 't4']);
  });
});

// A holding present before the first test began is never "opened during" a test, whatever the
// boundary scans after it say: the runner's own cwd inside a watched project, a file its session
// opened at start-up.
import { describe, expect, it } from 'vitest';
import type { Holder, HolderKind } from '../../contract/holders.js';
import type { JournalEntry } from '../../contract/journal.js';
import { replayedRun } from '../../tests/support/recorder-journal.js';

const START = Date.UTC(2026, 11, 4, 11, 0, 0);
const RUNNER = 10;

const held = (kind: HolderKind, path: string): Holder => ({
  pid: RUNNER,
  ppid: 1,
  processStartedAtMs: START + 20,
  processName: 'python3',
  commandLine: 'python3 -m pytest',
  user: 'u',
  kind,
  path,
  deleted: false,
  handle: kind === 'file' ? 'fd 5' : null,
  watchedDir: '/src',
});
const runner = { ancestry: [{ pid: RUNNER, name: 'python3', commandLine: 'python3 -m pytest' }], byTagOnly: false };

/** Two pytest tests (stamped in the test process); each ends with a boundary scan that sees `key`. */
const twoTests = (key: string, seenFromMs: number, h: Holder): JournalEntry[] => [
  { t: 'appeared', atMs: seenFromMs + 4, scanStartedAtMs: seenFromMs, key, holder: h, member: runner },
  { t: 'test', event: { type: 'test-start', name: 'test_writes_ok', atMs: START + 300, inTestProcess: true } },
  { t: 'test', event: { type: 'test-end', name: 'test_writes_ok', outcome: 'passed', atMs: START + 302, inTestProcess: true } },
  { t: 'boundary', test: 'test_writes_ok', atMs: START + 302, pid: RUNNER, scanStartedAtMs: START + 303, scanEndedAtMs: START + 305, held: [key] },
  { t: 'test', event: { type: 'test-start', name: 'test_other', atMs: START + 306, inTestProcess: true } },
  { t: 'test', event: { type: 'test-end', name: 'test_other', outcome: 'passed', atMs: START + 308, inTestProcess: true } },
  { t: 'boundary', test: 'test_other', atMs: START + 308, pid: RUNNER, scanStartedAtMs: START + 309, scanEndedAtMs: START + 311, held: [key] },
];

const attributionOf = (entries: JournalEntry[]) =>
  replayedRun(START, entries)
    .record()
    .holders.map((h) => h.attribution);

describe('a holder present before the first test', () => {
  it('seen by a scan that ended before the first test began: opened in no test', () => {
    const [a] = attributionOf(twoTests('k', START + 200, held('file', '/src/.pytest_cache/lock')));
    expect(a).toMatchObject({ openedDuring: null, verdict: 'in-run' });
  });

  it('the runner’s own cwd, first seen only during the first test: its process had it since it started', () => {
    const [a] = attributionOf(twoTests('k', START + 300, held('cwd', '/src')));
    expect(a).toMatchObject({ openedDuring: null, verdict: 'in-run' });
  });

  it('a file first seen during the first test is still that test’s', () => {
    const [a] = attributionOf(twoTests('k', START + 300, held('file', '/src/out.log')));
    expect(a).toMatchObject({ openedDuring: 'test_writes_ok', verdict: 'leaked-past-test' });
  });
});

describe('where the tests’ starts are read from output', () => {
  it('a first sighting before the stamped start proves nothing: go test -v dates a start when it reads it', () => {
    const readLate = twoTests('k', START + 200, held('file', '/src/out.log')).map((e) =>
      e.t === 'test' ? { ...e, event: { ...e.event, inTestProcess: false } } : e,
    );
    expect(attributionOf(readLate)[0]).toMatchObject({ openedDuring: 'test_writes_ok', verdict: 'leaked-past-test' });
  });
});

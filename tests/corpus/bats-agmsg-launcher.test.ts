// fujibee/agmsg#1036: a bats test's detached bridge keeps the SQLite store (with -wal and -shm) open
// while teardown removes the skill dir; on Windows the rm fails (README.md there).
import { describe, expect, it } from 'vitest';
import { CORPUS_RUNS, distinct, expectAllExitedZero, rowIdentities, runCase } from './corpus.js';

const RUNS = CORPUS_RUNS;
const TEST = 'launcher: windows-native starts the bridge (#567)';
// mktemp -d names the skill dir tmp.XXXXXXXXXX.
const stable = (path: string) => path.replace(/^tmp\.[A-Za-z0-9]{10}(?=\/)/, 'tmp.*');

describe('corpus: agmsg test_launcher.bats (a detached bridge holds the store while teardown removes it)', () => {
  it(`names the store and its -wal/-shm, deleted while the bridge held them, in ${RUNS} of ${RUNS} runs`, async () => {
    const runs = await runCase(
      'bats-agmsg-launcher',
      () => ['bats', 'tests/test_launcher.bats'],
      RUNS,
      (watched) => ({ AGMSG_TEST_TMPDIR: watched }),
      stable,
    );
    expectAllExitedZero(runs);
    expect(runs[0]!.record.tests.map((t) => [t.name, t.outcome])).toEqual([
      ['codex-monitor: windows-native reaches the bridged handoff (#567)', 'passed'],
      [TEST, 'passed'],
    ]);
    // The bridge's sqlite3 (no probe inside it) was spawned by the test: its holdings are that test's.
    const row = (file: string) => `tmp.*/${file} (deleted) | blocked-cleanup by deleted-while-held | opened in ${TEST} by poll | at no open stack`;
    expect(distinct(runs), rowIdentities(runs)).toEqual([
      {
        runs: RUNS,
        // -shm once: sqlite3 holds it open and maps it, one leak.
        summary: [row('db/messages.db'), row('db/messages.db-shm'), row('db/messages.db-wal'), row('run/bridge.out')],
      },
    ]);
  }, 300_000);
});

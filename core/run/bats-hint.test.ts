// The bats test of a process from its ancestry's bats-exec-test, where the environment hint is
// missing (a subshell the test forked, never exec'd). Command lines as bats-core 1.8.2 ran them.
import { describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import { batsHintFromAncestry } from './membership.js';
import { RunRecorder } from './run-recorder.js';

const EXEC_TEST = 'bash /usr/libexec/bats-core/bats-exec-test --dummy-flag -x /tmp/nc/suite.bats test_starts_a_background_writer 2 2 1';
const chain = (...lines: string[]) => lines.map((commandLine, i) => ({ pid: 100 + i, name: 'bash', commandLine }));

describe('batsHintFromAncestry', () => {
  it('takes the suite-wide number from the nearest bats-exec-test', () => {
    expect(
      batsHintFromAncestry(chain(EXEC_TEST, EXEC_TEST, 'bash /usr/libexec/bats-core/bats-exec-file --dummy-flag -x /tmp/nc/suite.bats /tmp/list.txt')),
    ).toEqual({
      runner: 'bats',
      number: 2,
    });
    // Its retry (try 2) of the 12th test of the suite, 3rd of its file, with no flags.
    expect(batsHintFromAncestry(chain('sleep 5', 'bats-exec-test /s/b.bats test_x 12 3 2'))).toEqual({ runner: 'bats', number: 12 });
  });

  it('finds none outside bats, and none in a look-alike', () => {
    expect(batsHintFromAncestry(chain('python3 -m pytest', 'bash -c pytest'))).toBeUndefined();
    expect(batsHintFromAncestry(chain('bash /usr/libexec/bats-core/bats-exec-file -x /s/b.bats 2 2 1'))).toBeUndefined();
    expect(batsHintFromAncestry(chain('mybats-exec-test f t 1 1 1'))).toBeUndefined();
  });
});

const T0 = Date.UTC(2026, 11, 2, 15, 0, 0);

/** A recorder of a bats run, and a writer subshell of its test 2 holding its log (never exec'd: no hint). */
function batsRun() {
  const holder: Holder = {
    pid: 200,
    ppid: 101,
    processStartedAtMs: T0 + 150,
    processName: 'bash',
    commandLine: EXEC_TEST,
    user: 'u',
    kind: 'file',
    path: '/w/bats-2/writer-1.log',
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
  };
  const r = new RunRecorder();
  r.apply({
    t: 'run-start',
    runId: 'r1',
    command: ['bats', 's.bats'],
    cwd: '/s',
    watched: ['/w'],
    platform: 'linux',
    atMs: T0,
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
  });
  const event = (type: 'test-start' | 'test-end', name: string, atMs: number) =>
    r.apply({ t: 'test', event: { type, name, atMs, ...(type === 'test-end' ? { outcome: 'passed' as const } : {}) } });
  return { r, holder, event };
}

describe('a bats subshell without its hint', () => {
  it('is spawned during the test its bats-exec-test names, even when first seen after that test ended', () => {
    const { r, holder, event } = batsRun();
    event('test-start', 'quick one', T0 + 10);
    event('test-end', 'quick one', T0 + 20);
    // The formatter dated test 2's start late (a loaded machine): the subshell's start falls before it.
    event('test-start', 'starts a background writer', T0 + 400);
    event('test-end', 'starts a background writer', T0 + 700);
    r.apply({ t: 'appeared', atMs: T0 + 900, key: 'k', holder, member: { ancestry: chain(EXEC_TEST, EXEC_TEST), byTagOnly: false } });
    r.apply({ t: 'run-end', atMs: T0 + 2000, exitCode: 0, lastSeen: { k: T0 + 1500 } });
    expect(r.record().holders[0]!.attribution.spawnedDuring).toBe('starts a background writer');
  });

  it('first seen before its test’s late-dated start, and held past its end, it leaked past the test it was spawned in', () => {
    const { r, holder, event } = batsRun();
    event('test-start', 'quick one', T0 + 10);
    event('test-end', 'quick one', T0 + 20);
    // As seen under load: the writer's log first seen at +200, the formatter dating test 2's start at +400.
    r.apply({ t: 'appeared', atMs: T0 + 200, key: 'k', holder, member: { ancestry: chain(EXEC_TEST, EXEC_TEST), byTagOnly: false } });
    event('test-start', 'starts a background writer', T0 + 400);
    event('test-end', 'starts a background writer', T0 + 700);
    r.apply({ t: 'run-end', atMs: T0 + 4000, exitCode: 0, lastSeen: { k: T0 + 3500 } });
    expect(r.record().holders[0]!.attribution).toMatchObject({
      firstSeenDuring: null,
      openedDuring: 'starts a background writer',
      openedDuringBy: 'process-tree',
      verdict: 'leaked-past-test',
    });
  });
});

import { expect, it } from 'vitest';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import type { OpenStack, StackFrame } from '../../contract/stacks.js';
import { headline, headlineText } from './headline.js';

const at = '2026-01-01T00:00:01.000Z';

function leaked(opened: Partial<AttributedHolder['attribution']>): RunRecord {
  const holder: AttributedHolder = {
    pid: 10,
    ppid: 1,
    processStartedAtMs: 0,
    processName: 'python3',
    commandLine: 'python3 -m pytest',
    user: 'u',
    kind: 'file',
    path: '/w/t0/leaked.txt',
    deleted: false,
    handle: 'fd 7',
    watchedDir: '/w',
    alsoHeldBy: [{ pid: 11, processName: 'sh', processStartedAtMs: 1 }],
    attribution: { spawnedDuring: null, firstSeenDuring: 'test_b', verdict: 'leaked-past-test', ancestry: [], firstSeenAt: at, lastSeenAt: at, ...opened },
  };
  return {
    runId: 'r',
    command: ['pytest'],
    cwd: '/src',
    watched: ['/w'],
    platform: 'linux',
    exitCode: 0,
    startedAt: at,
    endedAt: at,
    tests: [],
    holders: [holder],
    failures: [],
    leftovers: [],
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
  };
}

/** The probe's record of the open of leaked.txt, with these frames. */
function openOf(frames: StackFrame[]): OpenStack {
  return { kind: 'open', runtime: 'python', pid: 10, atMs: 0, api: 'open', path: '/w/t0/leaked.txt', fd: 7, argv: null, childPid: null, frames };
}

it('names the test that opened the handle and the line, not the test it was first seen in', () => {
  const frames = [
    { file: '/usr/lib/python3/dist-packages/sqlite_utils/db.py', line: 300, column: null, function: '__init__', user: false },
    { file: '/src/tests/test_a.py', line: 12, column: null, function: 'test_a', user: true },
  ];
  const stack = openOf(frames);
  const record = leaked({ openedDuring: 'test_a', openedDuringBy: 'test-boundary', openStack: { found: true, stack, matchedBy: 'fd', viaPid: null } });
  expect(headlineText(headline(record))).toBe(
    'No teardown failed, but python3 PID 10 still held t0/leaked.txt, opened in test_a at tests/test_a.py:12, after that test ended: on Windows, that cleanup would fail with WinError 32',
  );
});

it('without an open stack, the opening test still comes first', () => {
  expect(headlineText(headline(leaked({ openedDuring: 'test_a' })))).toBe(
    'No teardown failed, but python3 PID 10 still held t0/leaked.txt after test_a ended: on Windows, that cleanup would fail with WinError 32',
  );
});

it('with no leak and no failure, names what the garbage collector closed: the file, its line and test, and what fails where', () => {
  const frames = [{ file: '/src/tests/test_a.py', line: 9, column: null, function: 'test_a', user: true }];
  const stack = openOf(frames);
  const closedByFinalizer = { at, during: 'test_a', resource: 'file' as const, api: 'open' };
  const record = leaked({
    verdict: 'closed-by-gc',
    openedDuring: 'test_a',
    openedDuringBy: 'probe-open',
    closedByFinalizer,
    openStack: { found: true, stack, matchedBy: 'fd', viaPid: null },
  });
  expect(headlineText(headline(record))).toBe(
    'No teardown failed, but t0/leaked.txt, opened at tests/test_a.py:9 in test_a, was never closed by the code: the garbage collector closed it; on PyPy, or on Windows when the collection comes late, it is still open at the teardown: WinError 32',
  );
});

it('opened while parallel tests ran, where the syscall ledger cannot tell which: names them all, and no one', () => {
  const stack = { ...openOf([]), runtime: 'strace' as const, ambiguousAmong: ['TestP/a', 'TestP/b'] };
  const record = leaked({ openedDuring: null, verdictBy: 'syscall-ledger', openStack: { found: true, stack, matchedBy: 'fd', viaPid: null } });
  expect(headlineText(headline(record))).toBe(
    'No teardown failed, but python3 PID 10 still held t0/leaked.txt after TestP/a, TestP/b ended (they ran in parallel: one of them opened it): on Windows, that cleanup would fail with WinError 32',
  );
});

it('a holder whose process outlived the run: the test that spawned it, held after the command exited', () => {
  const record = leaked({ verdict: 'outlived-run', spawnedDuring: 'test_a', firstSeenDuring: null });
  expect(headlineText(headline(record))).toBe(
    'No teardown failed, but python3 PID 10, spawned by test_a, still held t0/leaked.txt after the test command exited: on Windows, deleting it meanwhile would fail with WinError 32',
  );
});

it("says what Windows answers by the opener: Node's fs opens a file deletable, its folder is what fails", () => {
  const frames = [{ file: '/src/tests/log.test.mjs', line: 9, column: null, function: null, user: true }];
  const byNode = (api: string): RunRecord =>
    leaked({
      openedDuring: 'writes a log',
      openedDuringBy: 'test-boundary',
      openStack: { found: true, stack: { ...openOf(frames), runtime: 'node', api }, matchedBy: 'fd', viaPid: null },
    });
  expect(headlineText(headline(byNode('fs.createWriteStream')))).toMatch(
    /after that test ended: on Windows, that cleanup would fail with ENOTEMPTY on its folder$/,
  );
  // Found in the process's own descriptor list: a native addon's open (SQLite's), which refuses delete sharing.
  expect(headlineText(headline(byNode('native')))).toMatch(/: on Windows, that cleanup would fail with WinError 32$/);
});

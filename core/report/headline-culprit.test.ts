import { expect, it } from 'vitest';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import { renderMarkdown } from './markdown.js';

function holder(pid: number, name: string, kind: 'file' | 'dir', path: string, firstSeenAt: string): AttributedHolder {
  return {
    pid,
    ppid: 1,
    processStartedAtMs: 0,
    processName: name,
    commandLine: name,
    user: 'u',
    kind,
    path,
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
    attribution: { spawnedDuring: 't', firstSeenDuring: 't', verdict: 'blocked-cleanup', ancestry: [], firstSeenAt, lastSeenAt: firstSeenAt },
  };
}

it('names the long-held holder, not the cleanup rm that holds the dir it removes', () => {
  const writer = holder(10, 'bash', 'file', '/w/work-1/indexer.log', '2026-01-01T00:00:01.000Z');
  const rm = holder(11, 'rm', 'dir', '/w/work-1', '2026-01-01T00:00:02.000Z');
  const record: RunRecord = {
    runId: 'r',
    command: ['bats', 't'],
    cwd: '/',
    watched: ['/w'],
    platform: 'linux',
    exitCode: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:03.000Z',
    tests: [{ name: 't', startedAt: '2026-01-01T00:00:00.500Z', endedAt: '2026-01-01T00:00:02.500Z', outcome: 'error', phase: 'teardown' }],
    holders: [writer, rm],
    failures: [
      {
        at: '2026-01-01T00:00:02.400Z',
        text: "rm: cannot remove '/w/work-1': Directory not empty",
        path: '/w/work-1',
        kind: 'directory-not-empty',
        code: 39,
        test: 't',
        holders: [rm, writer],
      },
    ],
    leftovers: [],
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
  };
  const headline = renderMarkdown(record).split('\n')[0]!;
  expect(headline).toContain('`bash` PID 10');
  expect(headline).not.toContain('`rm` PID 11');
});

it('names the database a cleanup fails on, not the launcher script its shell keeps open', () => {
  // bash holds its script on fd 255 as long as it runs: seen first, held longest, on the failed path too.
  const launcher = { ...holder(20, 'bash', 'file', '/w/work-2/launch.sh', '2026-01-01T00:00:01.000Z'), commandLine: 'bash /w/work-2/launch.sh' };
  const db = { ...holder(21, 'python3', 'file', '/w/work-2/app.db', '2026-01-01T00:00:01.500Z'), commandLine: 'python3 -c import sqlite3 /w/work-2/launch.sh' };
  const base = {
    runId: 'r',
    command: ['bats', 't'],
    cwd: '/',
    watched: ['/w'],
    platform: 'linux' as const,
    exitCode: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:03.000Z',
    tests: [],
    holders: [launcher, db],
    leftovers: [],
    versions: { holdwatch: '0', node: 'v20', os: 'linux' },
  };
  const failure = {
    at: '2026-01-01T00:00:02.400Z',
    text: 'rm: cannot remove',
    path: '/w/work-2',
    kind: 'directory-not-empty',
    code: 39,
    test: 't',
    holders: [launcher, db],
  };
  expect(renderMarkdown({ ...base, failures: [failure] }).split('\n')[0]).toContain('`python3` PID 21');
  // No failure: both leaked past their test; the headline names the database too.
  const leaked = (h: AttributedHolder): AttributedHolder => ({ ...h, attribution: { ...h.attribution, verdict: 'leaked-past-test' } });
  expect(renderMarkdown({ ...base, holders: [leaked(launcher), leaked(db)], failures: [] }).split('\n')[0]).toContain('`python3` PID 21');
});

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

import { describe, expect, it } from 'vitest';
import type { AttributedHolder, RunRecord } from '../../contract/runs.js';
import type { StackLookup } from '../../contract/stacks.js';
import { headline, headlineText } from './headline.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

const stack: StackLookup = {
  found: true,
  matchedBy: 'path',
  viaPid: null,
  stack: {
    kind: 'open',
    runtime: 'python',
    pid: 42,
    atMs: Date.UTC(2026, 0, 1),
    api: 'open',
    path: '/w/a.log',
    fd: null,
    argv: null,
    childPid: null,
    frames: [
      { file: '/usr/lib/python3.11/pathlib.py', line: 1044, column: null, function: 'Path.open', user: false },
      { file: '/src/tests/test_x.py', line: 17, column: null, function: 'test_<leak>', user: true },
    ],
  },
};

const holder: AttributedHolder = {
  pid: 42,
  ppid: 1,
  processStartedAtMs: Date.UTC(2026, 0, 1),
  processName: 'python3',
  commandLine: 'python3 -m pytest',
  user: 'u',
  kind: 'file',
  path: '/w/a.log',
  deleted: false,
  handle: 'fd 3',
  watchedDir: '/w',
  attribution: {
    spawnedDuring: null,
    firstSeenDuring: 't',
    verdict: 'leaked-past-test',
    ancestry: [],
    firstSeenAt: '2026-01-01T00:00:01.000Z',
    lastSeenAt: '2026-01-01T00:00:02.000Z',
    openStack: stack,
    spawnStack: { found: false, reason: 'no spawn stack' },
  },
};

const record: RunRecord = {
  runId: 'r',
  command: ['pytest'],
  cwd: '/src',
  watched: ['/w'],
  platform: 'linux',
  exitCode: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:03.000Z',
  tests: [],
  holders: [holder],
  failures: [],
  leftovers: [],
  versions: { holdwatch: '0', node: 'v20', os: 'linux' },
};

describe('stacks in reports', () => {
  it('Markdown names the user frame that opened the file', () => {
    const md = renderMarkdown(record);
    expect(md).toContain('opened by `open` at `/src/tests/test_x.py:17`');
    expect(md).toContain('> /src/tests/test_x.py:17 in test_<leak>');
  });

  it('HTML shows it escaped', () => {
    const page = renderHtml(record);
    expect(page).toContain('test_&lt;leak&gt;');
    expect(page).not.toContain('test_<leak>');
  });

  it('an open found in the descriptor list, no call seen (C code): said so, with no empty stack', () => {
    const listed: StackLookup = { found: true, matchedBy: 'fd', viaPid: null, stack: { ...stack.stack, api: 'native', listed: true, frames: [] } };
    const run = { ...record, holders: [{ ...holder, attribution: { ...holder.attribution, openStack: listed } }] };
    const md = renderMarkdown(run);
    expect(md).toContain("found open in the process's own descriptor list: opened by native code, no stack to show");
    expect(md).not.toContain('opened by `native`');
    expect(renderHtml(run)).toContain('found open in the process&#39;s own descriptor list');
  });

  it("a parent's delete that met its child's working directory: the headline and the stacks name the call and the child", () => {
    const deletedBy = {
      api: 'fs.rmSync',
      atMs: Date.UTC(2026, 0, 1, 0, 0, 2),
      path: '/w',
      frames: [{ file: '/src/t.mjs', line: 18, column: 3, function: null, user: true }],
      pid: 7,
    };
    const child: AttributedHolder = {
      ...holder,
      processName: 'node',
      kind: 'cwd',
      path: '/w/proj',
      handle: null,
      attribution: {
        ...holder.attribution,
        verdict: 'blocked-cleanup',
        verdictBy: 'deleted-while-held',
        openStack: { found: false, reason: 'none' },
        deletedBy,
      },
    };
    const run = { ...record, holders: [child] };
    expect(headlineText(headline(run))).toBe(
      'No teardown failed here, but fs.rmSync at t.mjs:18 in PID 7 deleted proj while its child node PID 42 still held it: on Windows, that delete fails (WinError 32, EBUSY)',
    );
    expect(renderMarkdown(run)).toContain("deleted while held, by its parent PID 7's `fs.rmSync` at `/src/t.mjs:18`: on Windows, that call fails");
    expect(renderHtml(run)).toContain('deleted while held, by its parent PID 7&#39;s <code>fs.rmSync</code>');
  });
});

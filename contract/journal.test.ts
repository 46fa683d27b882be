import { describe, expect, it } from 'vitest';
import { parseJournal } from './journal.js';

const start = {
  t: 'run-start',
  runId: 'r',
  command: ['x'],
  cwd: '/',
  watched: ['/w'],
  platform: 'linux',
  atMs: 1,
  versions: { holdwatch: '0', node: 'v20', os: 'linux' },
};
const holder = {
  pid: 5,
  ppid: 1,
  processStartedAtMs: 1,
  processName: 'p',
  commandLine: 'p',
  user: null,
  kind: 'file',
  path: '/w/a',
  deleted: false,
  handle: 'fd 3',
  watchedDir: '/w',
};

describe('parseJournal', () => {
  it('keeps valid entries and counts malformed ones, a torn last line included', () => {
    const lines = [
      JSON.stringify(start),
      JSON.stringify({ t: 'appeared', atMs: 2, key: 'k', holder, member: null }),
      JSON.stringify({ t: 'appeared', atMs: 2, key: 'k', holder: { ...holder, kind: 'socket' }, member: null }),
      JSON.stringify({ t: 'gone', atMs: 'soon', key: 'k', lastSeenAtMs: 2 }),
      JSON.stringify({ t: 'format-c' }),
      '{"t":"run-end","atMs":3,"exit',
    ];
    const { entries, rejected } = parseJournal(lines);
    expect(entries.map((e) => e.t)).toEqual(['run-start', 'appeared']);
    expect(rejected).toBe(4);
  });
});

import { describe, expect, it } from 'vitest';
import type { Holder } from '../contract/holders.js';
import { holderRow as holder } from '../tests/support/holder-row.js';
import { PollDiff } from './poll-diff.js';

const paths = (holders: readonly Holder[]) => holders.map((h) => `${h.pid}:${h.path}`);

describe('PollDiff', () => {
  it('reports appeared and gone by identity', () => {
    const polls = new PollDiff();
    const a = holder(1, '/w/a');
    const b = holder(2, '/w/b');
    expect(polls.update([a]).appeared).toEqual([a]);
    const diff = polls.update([b]);
    expect(diff.appeared).toEqual([b]);
    expect(diff.gone).toEqual([a]);
    expect(polls.current()).toEqual([b]);
  });

  it('treats a reused pid with a new start time as a different process', () => {
    const polls = new PollDiff();
    const old = holder(7, '/w/a', { processStartedAtMs: 1 });
    const reused = holder(7, '/w/a', { processStartedAtMs: 2 });
    polls.update([old]);
    const diff = polls.update([reused]);
    expect(diff.gone).toEqual([old]);
    expect(diff.appeared).toEqual([reused]);
  });

  it('keeps holders of processes outside a scoped scan', () => {
    const polls = new PollDiff();
    const a = holder(1, '/w/a');
    const b = holder(2, '/w/b');
    polls.update([a, b]);
    const diff = polls.update([], new Set([1]));
    expect(diff.gone).toEqual([a]);
    expect(polls.current()).toEqual([b]);
  });

  it('an equal row in a new object is no event, and the table keeps the new object', () => {
    const polls = new PollDiff();
    const first = holder(1, '/w/a');
    polls.update([first, holder(1, '/w/b', { handle: 'fd 4' })]);
    const again = holder(1, '/w/a');
    const diff = polls.update([again, holder(1, '/w/b', { handle: 'fd 4' })]);
    expect(diff).toEqual({ appeared: [], gone: [], changed: [] });
    expect(polls.current()[0]).toBe(again);
  });

  it('a process whose rows are the same objects changes nothing; a row added to it appears alone', () => {
    const polls = new PollDiff();
    const rows = [holder(1, '/w/a'), holder(1, '/w/b', { handle: 'fd 4' })];
    const other = holder(2, '/w/c');
    polls.update([...rows, other]);
    expect(polls.update([...rows, other])).toEqual({ appeared: [], gone: [], changed: [] });
    const added = holder(1, '/w/d', { handle: 'fd 5' });
    const diff = polls.update([...rows, added, other]);
    expect(diff).toEqual({ appeared: [added], gone: [], changed: [] });
    expect(paths(polls.current())).toEqual(['1:/w/a', '1:/w/b', '1:/w/d', '2:/w/c']);
  });

  it('a process whose rows come in two runs (not grouped by the backend) is one process', () => {
    const polls = new PollDiff();
    const a = holder(1, '/w/a');
    const b = holder(2, '/w/b');
    const c = holder(1, '/w/c', { handle: 'fd 4' });
    expect(polls.update([a, b, c]).appeared).toEqual([a, c, b]);
    expect(polls.update([a, b, c])).toEqual({ appeared: [], gone: [], changed: [] });
    expect(polls.update([b, a])).toEqual({ appeared: [], gone: [c], changed: [] });
  });

  it('two rows with one identity are one row', () => {
    const polls = new PollDiff();
    const a = holder(1, '/w/a');
    const twin = holder(1, '/w/a');
    expect(polls.update([a, twin]).appeared).toEqual([twin]);
    expect(polls.current()).toEqual([twin]);
    expect(polls.update([a, twin])).toEqual({ appeared: [], gone: [], changed: [] });
  });

  it("a process that exec'd while holding changes its rows, neither gone nor appeared", () => {
    const polls = new PollDiff();
    const forked = [holder(1, '/w/a', { processName: 'sh', commandLine: 'sh -c x' }), holder(1, '/w', { kind: 'cwd', handle: null, processName: 'sh' })];
    polls.update(forked);
    const execd = forked.map((h) => ({ ...h, processName: 'tail', commandLine: 'tail -f /w/a' }));
    expect(polls.update(execd)).toEqual({ appeared: [], gone: [], changed: execd });
    expect(polls.current()).toEqual(execd);
  });

  it('a new parent alone (reparented) is no change', () => {
    const polls = new PollDiff();
    polls.update([holder(1, '/w/a', { ppid: 5 })]);
    expect(polls.update([holder(1, '/w/a', { ppid: 1 })])).toEqual({ appeared: [], gone: [], changed: [] });
  });
});

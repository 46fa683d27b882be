import { describe, expect, it } from 'vitest';
import type { Holder } from '../contract/holders.js';
import { HolderTable } from './holder-table.js';

function holder(pid: number, path: string, over: Partial<Holder> = {}): Holder {
  return {
    pid,
    ppid: 1,
    processStartedAtMs: 1000,
    processName: 'p',
    commandLine: 'p',
    user: 'u',
    kind: 'file',
    path,
    deleted: false,
    handle: 'fd 3',
    watchedDir: '/w',
    ...over,
  };
}

const paths = (holders: readonly Holder[]) => holders.map((h) => `${h.pid}:${h.path}`);

describe('HolderTable', () => {
  it('reports appeared and gone by identity', () => {
    const table = new HolderTable();
    const a = holder(1, '/w/a');
    const b = holder(2, '/w/b');
    expect(table.update([a]).appeared).toEqual([a]);
    const diff = table.update([b]);
    expect(diff.appeared).toEqual([b]);
    expect(diff.gone).toEqual([a]);
    expect(table.current()).toEqual([b]);
  });

  it('treats a reused pid with a new start time as a different process', () => {
    const table = new HolderTable();
    const old = holder(7, '/w/a', { processStartedAtMs: 1 });
    const reused = holder(7, '/w/a', { processStartedAtMs: 2 });
    table.update([old]);
    const diff = table.update([reused]);
    expect(diff.gone).toEqual([old]);
    expect(diff.appeared).toEqual([reused]);
  });

  it('keeps holders of processes outside a scoped scan', () => {
    const table = new HolderTable();
    const a = holder(1, '/w/a');
    const b = holder(2, '/w/b');
    table.update([a, b]);
    const diff = table.update([], new Set([1]));
    expect(diff.gone).toEqual([a]);
    expect(table.current()).toEqual([b]);
  });

  it('an equal row in a new object is no event, and the table keeps the new object', () => {
    const table = new HolderTable();
    const first = holder(1, '/w/a');
    table.update([first, holder(1, '/w/b', { handle: 'fd 4' })]);
    const again = holder(1, '/w/a');
    const diff = table.update([again, holder(1, '/w/b', { handle: 'fd 4' })]);
    expect(diff).toEqual({ appeared: [], gone: [] });
    expect(table.current()[0]).toBe(again);
  });

  it('a process whose rows are the same objects changes nothing; a row added to it appears alone', () => {
    const table = new HolderTable();
    const rows = [holder(1, '/w/a'), holder(1, '/w/b', { handle: 'fd 4' })];
    const other = holder(2, '/w/c');
    table.update([...rows, other]);
    expect(table.update([...rows, other])).toEqual({ appeared: [], gone: [] });
    const added = holder(1, '/w/d', { handle: 'fd 5' });
    const diff = table.update([...rows, added, other]);
    expect(diff).toEqual({ appeared: [added], gone: [] });
    expect(paths(table.current())).toEqual(['1:/w/a', '1:/w/b', '1:/w/d', '2:/w/c']);
  });

  it('a process whose rows come in two runs (not grouped by the backend) is one process', () => {
    const table = new HolderTable();
    const a = holder(1, '/w/a');
    const b = holder(2, '/w/b');
    const c = holder(1, '/w/c', { handle: 'fd 4' });
    expect(table.update([a, b, c]).appeared).toEqual([a, c, b]);
    expect(table.update([a, b, c])).toEqual({ appeared: [], gone: [] });
    expect(table.update([b, a])).toEqual({ appeared: [], gone: [c] });
  });

  it('two rows with one identity are one row', () => {
    const table = new HolderTable();
    const a = holder(1, '/w/a');
    const twin = holder(1, '/w/a');
    expect(table.update([a, twin]).appeared).toEqual([twin]);
    expect(table.current()).toEqual([twin]);
    expect(table.update([a, twin])).toEqual({ appeared: [], gone: [] });
  });
});

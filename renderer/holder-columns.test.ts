import { describe, expect, it } from 'vitest';
import type { Holder } from '../contract/holders.js';
import type { Attribution } from '../contract/runs.js';
import { holderKey } from '../contract/identity.js';
import { HOLDER_COLUMNS, HOLDER_GRID_COLUMNS } from './holder-columns.js';
import { shownRows } from './store/derive.js';
import type { Row } from './store/rows.js';

function row(pid: number, name: string, path: string, test: string, verdict: Attribution['verdict'], sinceMs: number): Row {
  const holder: Holder = {
    pid,
    ppid: 1,
    processStartedAtMs: 5,
    processName: name,
    commandLine: `${name} run`,
    user: 'dev',
    kind: pid % 2 ? 'file' : 'cwd',
    path: `/w/${path}`,
    deleted: false,
    handle: null,
    watchedDir: '/w',
  };
  const attribution = { verdict, openedDuring: test, firstSeenDuring: null, spawnedDuring: null } as unknown as Attribution;
  return { key: holderKey(holder), holder, attribution, sinceMs, state: 'live', changedAtMs: 0 };
}

const rows = [
  row(30, 'beta', 'b.log', 't::c', 'in-run', 3),
  row(10, 'alpha', 'c.log', 't::a', 'outside-run', 2),
  row(20, 'gamma', 'a.log', 't::b', 'leaked-past-test', 1),
];

describe('the holder columns, each described once', () => {
  it('sort the table by their own value, every one of them', () => {
    for (const column of HOLDER_COLUMNS) {
      const sorted = shownRows(rows, { sort: { column: column.id, descending: false }, filter: '' }).map((r) => column.sortValue(r));
      expect(sorted, column.id).toEqual([...sorted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  it('are what the filter searches: a column with filter text finds its row by it', () => {
    for (const column of HOLDER_COLUMNS) {
      if (!('filterText' in column)) continue;
      const text = column.filterText(rows[1]!);
      expect(
        shownRows(rows, { sort: { column: 'pid', descending: false }, filter: text }).map((r) => r.holder.pid),
        column.id,
      ).toContain(10);
    }
  });

  it('give the grid one track each, in their order', () => {
    expect(HOLDER_GRID_COLUMNS.split(/ (?![^(]*\))/)).toHaveLength(HOLDER_COLUMNS.length);
  });
});

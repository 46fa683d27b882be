import { describe, expect, it } from 'vitest';
import { shownRow } from './shown-row.fixture.js';
import { GROUP_OPEN_AT_MOST, groupByProcess, summarizeShown, type ProcessItem } from './derive.js';

const row = shownRow;

const shape = (items: ProcessItem[]) =>
  items.map((i) =>
    i.type === 'group' ? `group ${i.key} ${i.files}/${i.holding}${i.collapsed ? ' folded' : ''}` : `${i.inGroup ? '  ' : ''}${i.row.holder.path}`,
  );

describe('groupByProcess', () => {
  it('puts a header over each process with two or more rows, in the order of its first row; a lone row stays plain', () => {
    const rows = [
      row(7, '/w/a'),
      row(8, '/w/x'),
      row(7, '/w/b', { state: 'ended' }),
      row(7, '/w/c', { folded: { count: 4, dir: '/w', firstKey: 'k' }, state: 'ended' }),
    ];
    expect(shape(groupByProcess(rows, new Set()))).toEqual(['group 7:5 6/1', '  /w/a', '  /w/b', '  /w/c', '/w/x']);
  });

  it('tells a reused pid apart by its start time', () => {
    const later = row(7, '/w/b');
    later.holder = { ...later.holder, processStartedAtMs: 9 };
    expect(shape(groupByProcess([row(7, '/w/a'), later], new Set()))).toEqual(['/w/a', '/w/b']);
  });

  it('folds a process with more than GROUP_OPEN_AT_MOST rows until opened, and a toggled small one', () => {
    const many = Array.from({ length: GROUP_OPEN_AT_MOST + 1 }, (_, i) => row(7, `/w/f${i}`));
    expect(shape(groupByProcess(many, new Set()))).toEqual([`group 7:5 ${GROUP_OPEN_AT_MOST + 1}/${GROUP_OPEN_AT_MOST + 1} folded`]);
    expect(groupByProcess(many, new Set(['7:5']))).toHaveLength(GROUP_OPEN_AT_MOST + 2);
    expect(shape(groupByProcess([row(8, '/w/a'), row(8, '/w/b')], new Set(['8:5'])))).toEqual(['group 8:5 2/2 folded']);
  });
});

// The table's count line and legend, from the same rows: handles as the group header counts them.
describe('summarizeShown', () => {
  it('counts the handles rows stand for, those no longer held, and the marks on screen', () => {
    const gcClosed = { spawnedDuring: null, firstSeenDuring: 't1', verdict: 'closed-by-gc' as const, ancestry: [], firstSeenAt: 'x', lastSeenAt: 'x' };
    const rows = [
      row(7, '/w/a'),
      row(7, '/w/c', { folded: { count: 4, dir: '/w', firstKey: 'k' }, state: 'ended' }),
      row(8, '/w/b', { state: 'gone' }),
      row(9, '/w/n', { state: 'new', highlighted: true, attribution: gcClosed }),
    ];
    expect(summarizeShown(rows)).toEqual({
      handles: 7,
      endedHandles: 5,
      marks: { new: true, ended: true, highlighted: true, folded: true, closedByGc: true },
    });
  });

  it('has no marks for rows that all still hold, unmarked', () => {
    expect(summarizeShown([row(7, '/w/a'), row(8, '/w/b')])).toEqual({
      handles: 2,
      endedHandles: 0,
      marks: { new: false, ended: false, highlighted: false, folded: false, closedByGc: false },
    });
  });
});

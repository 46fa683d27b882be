import { describe, expect, it } from 'vitest';
import type { Attribution } from '../../contract/runs.js';
import { shownRow } from './shown-row.fixture.js';
import type { ShownRow, TableItem } from './derive.js';
import { sectionedItems, sectionKey } from './sections.js';

function row(pid: number, path: string, verdict: Attribution['verdict'] | null, over: Partial<ShownRow> = {}): ShownRow {
  return shownRow(pid, path, { attribution: verdict && ({ verdict } as Attribution), ...over });
}

const shape = (items: TableItem[]) =>
  items.map((i) => (i.type === 'section' ? `[${i.section} ${i.count}${i.collapsed ? ' folded' : ''}]` : i.type === 'row' ? i.row.holder.path : 'group'));

describe("a run's table in sections", () => {
  const rows = [
    row(1, '/w/editor.swp', 'outside-run'),
    row(2, '/w/indexer.db', 'outlived-run'),
    row(3, '/w/app.log', 'leaked-past-test'),
    row(4, '/w/other.tmp', null),
    row(5, '/w/av.lock', 'outside-run', { highlighted: true }),
  ];

  it("puts the run's own rows first, then the processes that outlived the run, then the outsiders folded under their count", () => {
    expect(shape(sectionedItems(rows, new Set(), false))).toEqual(['/w/app.log', '/w/av.lock', '[outlived 1]', '/w/indexer.db', '[outside 2 folded]']);
  });

  it('opens the outsiders, or folds the outlived, when the user flips them', () => {
    const toggled = new Set([sectionKey('outside'), sectionKey('outlived')]);
    expect(shape(sectionedItems(rows, toggled, false))).toEqual([
      '/w/app.log',
      '/w/av.lock',
      '[outlived 1 folded]',
      '[outside 2]',
      '/w/editor.swp',
      '/w/other.tmp',
    ]);
  });

  it('keeps an outsider that blocked the cleanup among the answer', () => {
    expect(shape(sectionedItems([row(1, '/w/a', 'blocked-cleanup'), row(2, '/w/b', 'outside-run')], new Set(), false))).toEqual(['/w/a', '[outside 1 folded]']);
  });
});

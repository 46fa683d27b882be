// The holders table's body: the virtualized rows. Its own component, so a scrolled frame renders
// only the rows that came into view, not the table's tools, header and legend; rows already on
// screen keep their props (memo, keyed by holder) and are not rendered again.
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, memo, useRef } from 'react';
import { processKey } from '../../contract/identity.js';
import { stillHolds, type ShownRow, type TableItem } from '../store/derive.js';
import { sectionKey } from '../store/sections.js';
import { selectRow, toggleGroup } from '../store/intents.js';
import { thousands } from '../format.js';
import { HOLDER_COLUMNS, type CellContext } from '../holder-columns.js';

const ROW_HEIGHT = 28;

export const HolderRows = memo(function HolderRows({
  rows,
  items,
  selectedKey,
  holdingProcesses,
}: {
  rows: readonly ShownRow[];
  /** The table's lines when grouped or sectioned; null: a line per row. */
  items: readonly TableItem[] | null;
  selectedKey: string | null;
  /** Processes that still hold something: a row no longer held whose process is among them was closed, not exited. */
  holdingProcesses: ReadonlySet<string>;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items?.length ?? rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  return (
    <div className="scroller" ref={scroller} data-testid="holders-scroller" role="table">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          // A plain watch's line is its row: nothing is made per line on a scrolled frame.
          const item = items?.[virtual.index];
          if (item?.type === 'group') return <GroupRow key={`group:${item.key}`} group={item} top={virtual.start} />;
          if (item?.type === 'section') return <SectionRow key={`section:${item.section}`} section={item} top={virtual.start} />;
          const row = item ? item.row : rows[virtual.index]!;
          return (
            <HolderRow
              key={row.key}
              row={row}
              top={virtual.start}
              inGroup={item?.inGroup ?? false}
              ended={stillHolds(row) ? null : holdingProcesses.has(processKey(row.holder)) ? 'closed' : 'exited'}
              selected={row.key === selectedKey || (row.folded !== undefined && row.folded.firstKey === selectedKey)}
            />
          );
        })}
      </div>
    </div>
  );
});

// Memoized: while scrolling, rows already on screen keep their props and skip rendering.
const HolderRow = memo(function HolderRow({
  row,
  top,
  selected,
  inGroup,
  ended,
}: {
  row: ShownRow;
  top: number;
  selected: boolean;
  inGroup: boolean;
  ended: CellContext['ended'];
}) {
  const verdict = row.attribution?.verdict;
  const classes = [
    'grid',
    'row',
    `state-${row.state}`,
    selected ? 'selected' : '',
    row.highlighted ? 'highlighted' : '',
    verdict ? `verdict-${verdict}` : '',
    inGroup ? 'in-group' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={classes}
      role="row"
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => void selectRow(row.folded?.firstKey ?? row.key)}
      data-pid={row.holder.pid}
      aria-selected={selected}
    >
      {HOLDER_COLUMNS.map((c) => (
        <Fragment key={c.id}>{c.cell(row, { ended })}</Fragment>
      ))}
    </div>
  );
});

const SECTION_TEXT = {
  outlived: (n: number) =>
    `Outlived the run: ${thousands(n)} ${n === 1 ? 'holder whose process was' : 'holders whose processes were'} still alive and holding when the command exited`,
  outside: (n: number) => `${thousands(n)} ${n === 1 ? 'holder' : 'holders'} of processes outside the run`,
};

/** A run's section header: its count; clicking folds or opens its rows. */
function SectionRow({ section, top }: { section: Extract<TableItem, { type: 'section' }>; top: number }) {
  return (
    <button
      className={`row section-row ${section.section}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => toggleGroup(sectionKey(section.section))}
      aria-expanded={!section.collapsed}
      data-testid={`section-${section.section}`}
    >
      <span className="fold-mark">{section.collapsed ? '▸' : '▾'}</span> {SECTION_TEXT[section.section](section.count)}
    </button>
  );
}

/** A process's header when grouped: its name, PID and how many of its files still hold; clicking folds or opens its rows. */
function GroupRow({ group, top }: { group: Extract<TableItem, { type: 'group' }>; top: number }) {
  const h = group.first.holder;
  const files = `${thousands(group.files)} ${group.files === 1 ? 'handle' : 'handles'}`;
  const held = group.holding === group.files ? 'all held' : group.holding === 0 ? 'none held now' : `${thousands(group.holding)} held`;
  return (
    <button
      className="row group-row"
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => toggleGroup(group.key)}
      aria-expanded={!group.collapsed}
      title={h.commandLine}
      data-testid="process-group"
    >
      <span className="fold-mark">{group.collapsed ? '▸' : '▾'}</span> <strong>{h.processName}</strong> PID {h.pid} · {files} ({held})
      {group.rows !== group.files ? ` in ${group.rows} rows` : ''}
      <span className="command"> {h.commandLine}</span>
    </button>
  );
}

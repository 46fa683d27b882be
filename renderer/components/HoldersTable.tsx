// The live holders table: virtualized (only the visible rows exist in the DOM), sortable by any
// column, filterable; new rows glow, gone rows fade in place before they are swept.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useDeferredValue, useMemo, useRef } from 'react';
import {
  foldShortLived,
  frozenRows,
  groupByProcess,
  relativePath,
  shownRows,
  summarizeShown,
  testOf,
  withRunHolders,
  type ShownRow,
  type ShownSummary,
  type TableItem,
} from '../store/derive.js';
import { selectRow, setFilter, setGroupByProcess, sortBy, toggleGroup } from '../store/intents.js';
import type { SortColumn } from '../store/slices.js';
import { useStore } from '../store/store.js';
import { clockTime, thousands, VERDICT_LABEL } from '../format.js';

const COLUMNS: { id: SortColumn; label: string }[] = [
  { id: 'process', label: 'Process' },
  { id: 'pid', label: 'PID' },
  { id: 'kind', label: 'Kind' },
  { id: 'path', label: 'Path' },
  { id: 'since', label: 'Since' },
  { id: 'test', label: 'Test' },
  { id: 'verdict', label: 'Verdict' },
];
const ROW_HEIGHT = 28;

export function HoldersTable() {
  const liveRows = useStore((s) => s.watch.rows);
  const sort = useStore((s) => s.settings.sort);
  const filter = useStore((s) => s.settings.filter);
  const selectedKey = useStore((s) => s.selection.selectedKey);
  const frozenIndex = useStore((s) => s.selection.frozenFailure);
  const record = useStore((s) => s.run.record);
  const failures = useStore((s) => s.run.failures);
  const grouped = useStore((s) => s.settings.groupByProcess);
  const toggledGroups = useStore((s) => s.settings.toggledGroups);
  const frozen = frozenIndex !== null ? failures[frozenIndex] : undefined;

  // The input shows each keystroke at once; filtering 20,000 rows follows when React has time.
  const deferredFilter = useDeferredValue(filter);
  const rows = useMemo(() => {
    const ended = Boolean(record?.endedAt);
    if (!frozen) return shownRows(foldShortLived(withRunHolders(liveRows, record), ended), { sort, filter: deferredFilter });
    const { rows: atFailure, blockers } = frozenRows(record, frozen);
    return shownRows(foldShortLived(atFailure, ended, blockers), { sort, filter: deferredFilter }, blockers);
  }, [liveRows, sort, deferredFilter, frozen, record]);
  // Grouped, the lines are headers and rows; ungrouped, the rows themselves, with no object made per row.
  const groupedItems = useMemo(() => (grouped ? groupByProcess(rows, toggledGroups) : null), [rows, grouped, toggledGroups]);
  const itemAt = (index: number): TableItem => groupedItems?.[index] ?? { type: 'row', row: rows[index]!, inGroup: false };

  // The virtualizer renders this component again on every scrolled frame: nothing here may walk all rows then.
  const summary = useMemo(() => summarizeShown(rows), [rows]);

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: groupedItems?.length ?? rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });

  return (
    <section className="holders" aria-label="Holders">
      <div className="table-tools">
        <input
          className="filter"
          type="search"
          placeholder="Filter: process, PID, path, test, verdict"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          aria-label="Filter holders"
        />
        <label className="group-toggle">
          <input type="checkbox" checked={grouped} onChange={(e) => setGroupByProcess(e.target.checked)} /> Group by process
        </label>
        <span className="count" data-testid="row-count">
          {countText(summary, Boolean(frozen))}
        </span>
      </div>
      <Legend marks={summary.marks} />
      <div className="grid header" role="row">
        {COLUMNS.map((c) => (
          <button
            key={c.id}
            role="columnheader"
            className={`cell col-${c.id}`}
            onClick={() => sortBy(c.id)}
            aria-sort={sort.column === c.id ? (sort.descending ? 'descending' : 'ascending') : 'none'}
          >
            {c.label}
            {sort.column === c.id ? (sort.descending ? ' ▾' : ' ▴') : ''}
          </button>
        ))}
      </div>
      <div className="scroller" ref={scroller} data-testid="holders-scroller" role="table">
        {rows.length === 0 ? (
          <p className="empty">
            {deferredFilter
              ? 'No holder matches the filter.'
              : frozen
                ? 'Nothing held the directory at that moment.'
                : 'Nothing holds the directory right now.'}
          </p>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((virtual) => {
              const item = itemAt(virtual.index);
              if (item.type === 'group') return <GroupRow key={`group:${item.key}`} group={item} top={virtual.start} />;
              const row = item.row;
              return (
                <HolderRow
                  key={row.key}
                  row={row}
                  top={virtual.start}
                  inGroup={item.inGroup}
                  selected={row.key === selectedKey || (row.folded !== undefined && row.folded.firstKey === selectedKey)}
                />
              );
            })}
          </div>
        )}
      </div>
    </section>
  );
}

// Memoized: while scrolling, rows already on screen keep their props and skip rendering.
const HolderRow = memo(function HolderRow({ row, top, selected, inGroup }: { row: ShownRow; top: number; selected: boolean; inGroup: boolean }) {
  const h = row.holder;
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
      data-pid={h.pid}
      aria-selected={selected}
    >
      <span className="cell col-process" title={h.commandLine}>
        {h.processName}
      </span>
      <span className="cell col-pid">{h.pid}</span>
      {/* The handle tells apart two rows of one process on one path (rm opens a dir twice). */}
      <span className="cell col-kind" title={h.handle ?? undefined}>
        {row.folded ? 'files' : h.kind}
        {h.handle && !row.folded ? <span className="handle"> {h.handle.replace(/^fd /, '')}</span> : null}
      </span>
      {row.folded ? (
        <span
          className="cell col-path folded"
          title={`${row.folded.count} files in ${row.folded.dir}, each closed again within its test`}
          data-testid="folded-row"
        >
          <bdi>
            {relativePath(row.folded.dir, h.watchedDir)}/ · {row.folded.count} short-lived files
          </bdi>
        </span>
      ) : (
        <span className="cell col-path" title={h.path}>
          <bdi>
            {relativePath(h.path, h.watchedDir)}
            {h.deleted ? <em className="deleted"> (deleted)</em> : null}
          </bdi>
        </span>
      )}
      <span className="cell col-since">{clockTime(row.sinceMs)}</span>
      <span className="cell col-test" title={testOf(row)}>
        <bdi>{testOf(row) || '—'}</bdi>
      </span>
      <span className="cell col-verdict">{verdict ? <span className={`badge ${verdict}`}>{VERDICT_LABEL[verdict]}</span> : '—'}</span>
    </div>
  );
});

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

/** "3 holding · 2 no longer": a count that agrees with the struck-through rows. */
function countText({ handles, endedHandles }: ShownSummary, frozen: boolean): string {
  const n = (count: number, one: string, many: string) => `${thousands(count)} ${count === 1 ? one : many}`;
  if (frozen) return `${n(handles, 'holder', 'holders')} at the failure`;
  if (endedHandles === 0) return n(handles, 'holder', 'holders');
  return `${n(handles - endedHandles, 'holding', 'holding')} · ${n(endedHandles, 'no longer', 'no longer')}`;
}

/** What the marks mean, shown only for the marks on screen. */
function Legend({ marks }: { marks: ShownSummary['marks'] }) {
  const items = [
    marks.new && { className: 'state-new', text: 'new in the last seconds' },
    marks.ended && {
      className: 'state-ended',
      text: 'no longer held (closed, or its process exited): still clickable',
    },
    marks.highlighted && { className: 'highlighted', text: 'blocked the failure' },
    marks.folded && { className: 'folded', text: 'short-lived files of one process, folded: each closed again within its test' },
    marks.closedByGc && {
      className: 'closed-by-gc',
      badge: VERDICT_LABEL['closed-by-gc'],
      text: 'the code never closed it, the garbage collector did: on PyPy, or on Windows when the collection comes late, the teardown fails',
    },
  ].filter((item): item is { className: string; text: string; badge?: string } => Boolean(item));
  if (items.length === 0) return null;
  return (
    <div className="legend" data-testid="legend">
      {items.map((item) => (
        <span key={item.className}>
          {item.badge ? <span className={`badge ${item.className}`}>{item.badge}</span> : <span className={`swatch ${item.className}`}>Aa</span>} {item.text}
        </span>
      ))}
    </div>
  );
}

// The live holders table: virtualized (only the visible rows exist in the DOM), sortable by any
// column, filterable; new rows glow, gone rows fade in place before they are swept.
import { useDeferredValue, useMemo, type CSSProperties } from 'react';
import { processKey } from '../../contract/identity.js';
import { foldShortLived, frozenRows, groupByProcess, shownRows, stillHolds, summarizeShown, withRunHolders, type ShownSummary } from '../store/derive.js';
import { sectionedItems } from '../store/sections.js';
import { setFilter, setGroupByProcess, sortBy } from '../store/intents.js';
import { useStore } from '../store/store.js';
import { thousands, VERDICT_LABEL } from '../format.js';
import { HOLDER_COLUMNS, HOLDER_GRID_COLUMNS } from '../holder-columns.js';
import { HolderRows } from './HolderRows.js';

const GRID_STYLE = { '--holder-columns': HOLDER_GRID_COLUMNS } as CSSProperties;

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
  // A run's table is in sections (its own rows first); a plain watch's lines are its rows, with no
  // object made per row unless grouped.
  const items = useMemo(
    () => (record ? sectionedItems(rows, toggledGroups, grouped) : grouped ? groupByProcess(rows, toggledGroups) : null),
    [rows, record, grouped, toggledGroups],
  );
  // Processes that still hold something: a row no longer held whose process is among them was closed, not exited.
  const holdingProcesses = useMemo(() => new Set([...liveRows.values()].filter(stillHolds).map((row) => processKey(row.holder))), [liveRows]);

  const summary = useMemo(() => summarizeShown(rows), [rows]);

  return (
    <section className="holders" aria-label="Holders" style={GRID_STYLE}>
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
        {HOLDER_COLUMNS.map((c) => (
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
      {rows.length === 0 ? (
        <div className="scroller" data-testid="holders-scroller" role="table">
          <p className="empty">
            {deferredFilter
              ? 'No holder matches the filter.'
              : frozen
                ? 'Nothing held the directory at that moment.'
                : 'Nothing holds the directory right now.'}
          </p>
        </div>
      ) : (
        <HolderRows rows={rows} items={items} selectedKey={selectedKey} holdingProcesses={holdingProcesses} />
      )}
    </section>
  );
}

/** "3 holding · 2 no longer": a count that agrees with the rows marked exited or closed. */
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
      className: 'row-ended',
      badge: 'exited',
      text: 'no longer held: its process exited (or, "closed", it closed the handle); still the one to click',
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

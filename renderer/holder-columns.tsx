// The holders table's columns, each described once: its header, its grid track, the value it sorts
// by, the text the filter searches and the cell it draws. A new column is one entry here.
import type { ReactNode } from 'react';
import { clockTime, VERDICT_LABEL } from './format.js';
import type { ListedRow } from './store/derive.js';
import { relativePath, testOf } from './store/row-text.js';
import { processLabel } from './process-label.js';
import { Elided } from './components/Elided.js';

/** What a cell knows beyond its row: whether the process of a row no longer held has exited. */
export interface CellContext {
  /** `exited`: its process is gone; `closed`: the process lives, the handle was closed; null: still held. */
  ended: 'exited' | 'closed' | null;
}

export interface HolderColumn {
  id: string;
  label: string;
  /** Its track in the grid's `grid-template-columns`. */
  width: string;
  sortValue(row: ListedRow): string | number;
  /** What the filter box searches in this column; absent: nothing. */
  filterText?(row: ListedRow): string;
  cell(row: ListedRow, context: CellContext): ReactNode;
}

export const HOLDER_COLUMNS = [
  {
    id: 'process',
    label: 'Process',
    width: 'minmax(140px, 0.8fr)',
    sortValue: (row) => row.holder.processName.toLowerCase(),
    filterText: (row) => `${row.holder.processName} ${row.holder.commandLine}`,
    cell: (row, { ended }) => {
      const label = processLabel(row.holder);
      return (
        <span className="cell col-process" title={row.holder.commandLine}>
          <span className="process-name">
            <Elided text={label} />
          </span>
          {/* A process that exited is still the answer: said in a word, its row as legible as any. */}
          {ended && (
            <span className={`badge row-ended ${ended}`} data-testid="row-ended">
              {ended}
            </span>
          )}
        </span>
      );
    },
  },
  {
    id: 'pid',
    label: 'PID',
    width: '64px',
    sortValue: (row) => row.holder.pid,
    filterText: (row) => String(row.holder.pid),
    cell: (row) => <span className="cell col-pid">{row.holder.pid}</span>,
  },
  {
    id: 'kind',
    label: 'Kind',
    // "file 16672" whole: a process holding tens of thousands of files has five-digit fds.
    width: '84px',
    sortValue: (row) => row.holder.kind,
    filterText: (row) => row.holder.kind,
    // The handle tells apart two rows of one process on one path (rm opens a dir twice).
    cell: ({ holder: h, folded }) => (
      <span className="cell col-kind" title={h.handle ?? undefined}>
        {folded ? 'files' : h.kind}
        {h.handle && !folded ? <span className="handle"> {h.handle.replace(/^fd /, '')}</span> : null}
      </span>
    ),
  },
  {
    id: 'path',
    label: 'Path',
    width: 'minmax(120px, 1.2fr)',
    sortValue: (row) => relativePath(row.holder.path, row.holder.watchedDir),
    filterText: (row) => row.holder.path,
    cell: ({ holder: h, folded }) =>
      folded ? (
        <span className="cell col-path folded" title={`${folded.count} files in ${folded.dir}, each closed again within its test`} data-testid="folded-row">
          {relativePath(folded.dir, h.watchedDir)}/ · {folded.count} short-lived files
        </span>
      ) : (
        <span className="cell col-path" title={`${h.path}${h.deleted ? ' (deleted)' : ''}`}>
          <Elided text={relativePath(h.path, h.watchedDir)} after={h.deleted ? <em className="deleted"> (deleted)</em> : null} />
        </span>
      ),
  },
  {
    id: 'since',
    label: 'Since',
    width: '112px',
    sortValue: (row) => row.sinceMs,
    cell: (row) => <span className="cell col-since">{clockTime(row.sinceMs)}</span>,
  },
  {
    id: 'test',
    label: 'Test',
    width: 'minmax(120px, 1fr)',
    sortValue: testOf,
    filterText: testOf,
    cell: (row) => (
      <span className="cell col-test" title={testOf(row)}>
        {testOf(row) ? <Elided text={testOf(row)} /> : '—'}
      </span>
    ),
  },
  {
    id: 'verdict',
    label: 'Verdict',
    width: '132px',
    sortValue: (row) => row.attribution?.verdict ?? '',
    filterText: (row) => row.attribution?.verdict ?? '',
    cell: (row) => {
      const verdict = row.attribution?.verdict;
      return <span className="cell col-verdict">{verdict ? <span className={`badge ${verdict}`}>{VERDICT_LABEL[verdict]}</span> : '—'}</span>;
    },
  },
] as const satisfies readonly HolderColumn[];

export type HolderColumnId = (typeof HOLDER_COLUMNS)[number]['id'];

/** The grid's tracks, in column order: header and rows share them. */
export const HOLDER_GRID_COLUMNS = HOLDER_COLUMNS.map((c) => c.width).join(' ');

// What the table shows: the live rows, or the snapshot frozen at a failure, filtered and sorted.
import type { AttributedHolder, FailureRecord, RunRecord } from '../../contract/runs.js';
import { holderKey } from '../../contract/identity.js';
import type { Row } from './rows.js';
import type { RunSlice, SettingsSlice, SortColumn } from './slices.js';

export interface ShownRow extends Row {
  /** Blocked the failure the view is frozen at. */
  highlighted: boolean;
}

/** Path relative to the watched dir, for the table; the full path is in the details. */
export function relativePath(path: string, watchedDir: string): string {
  if (path === watchedDir) return '.';
  for (const sep of ['/', '\\']) {
    const prefix = watchedDir.endsWith(sep) ? watchedDir : watchedDir + sep;
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  return path;
}

export function testOf(row: Row): string {
  return row.attribution?.firstSeenDuring ?? row.attribution?.spawnedDuring ?? '';
}

const text = (row: Row, column: SortColumn): string | number => {
  switch (column) {
    case 'process':
      return row.holder.processName.toLowerCase();
    case 'pid':
      return row.holder.pid;
    case 'kind':
      return row.holder.kind;
    case 'path':
      return relativePath(row.holder.path, row.holder.watchedDir);
    case 'since':
      return row.sinceMs;
    case 'test':
      return testOf(row);
    case 'verdict':
      return row.attribution?.verdict ?? '';
  }
};

export function shownRows(rows: Iterable<Row>, settings: Pick<SettingsSlice, 'sort' | 'filter'>, highlighted: ReadonlySet<string> = new Set()): ShownRow[] {
  const needle = settings.filter.trim().toLowerCase();
  const out: ShownRow[] = [];
  for (const row of rows) {
    if (needle && !matches(row, needle)) continue;
    out.push({ ...row, highlighted: highlighted.has(row.key) });
  }
  const { column, descending } = settings.sort;
  const sign = descending ? -1 : 1;
  // The key breaks ties, so equal rows keep one order across updates (rows never swap places).
  return out.sort((a, b) => {
    const x = text(a, column);
    const y = text(b, column);
    return (x < y ? -sign : x > y ? sign : 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  });
}

function matches(row: Row, needle: string): boolean {
  const h = row.holder;
  return [h.processName, String(h.pid), h.kind, h.path, h.commandLine, testOf(row), row.attribution?.verdict ?? ''].some((v) =>
    v.toLowerCase().includes(needle),
  );
}

/** The holders alive at a failure's moment, from the record; the failure's blockers always included. */
export function frozenRows(record: RunRecord | null, failure: FailureRecord): { rows: Row[]; blockers: Set<string> } {
  const atMs = Date.parse(failure.at);
  const byKey = new Map<string, AttributedHolder>();
  for (const h of record?.holders ?? []) {
    if (Date.parse(h.attribution.firstSeenAt) <= atMs && Date.parse(h.attribution.lastSeenAt) >= atMs) byKey.set(holderKey(h), h);
  }
  for (const h of failure.holders) byKey.set(holderKey(h), h);
  const rows = [...byKey].map(([key, h]): Row => ({
    key,
    holder: h,
    attribution: h.attribution,
    sinceMs: Date.parse(h.attribution.firstSeenAt),
    state: 'live',
    changedAtMs: 0,
  }));
  return { rows, blockers: new Set(failure.holders.map(holderKey)) };
}

/** An attached run the UI stopped following: it ended here without its final record, and goes on in its terminal. */
export function isDetached(run: Pick<RunSlice, 'attachedPid' | 'phase' | 'record'>): boolean {
  return run.attachedPid !== null && run.phase === 'ended' && !run.record?.endedAt;
}

// What the table shows: the live rows, or the snapshot frozen at a failure, filtered and sorted.
import type { AttributedHolder, FailureRecord, RunRecord } from '../../contract/runs.js';
import { holderKey, inheritedCopyKey, processKey } from '../../contract/identity.js';
import { foldTransient, isTransient } from '../../contract/transient.js';
import { HOLDER_COLUMNS } from '../holder-columns.js';
import type { Row } from './rows.js';
import type { RunSlice, SettingsSlice } from './slices.js';

export interface ShownRow extends Row {
  /** Blocked the failure the view is frozen at. */
  highlighted: boolean;
  /** A group of short-lived files of one process in one folder, shown as this one row. */
  folded?: { count: number; dir: string; firstKey: string };
}

/** A row as the table lists it: a holder's, or the one standing for a folded group. */
export type ListedRow = Row & { folded?: ShownRow['folded'] };

/**
 * The rows with the run's short-lived files folded (contract/transient.ts): only rows no longer held
 * and not blocking the failure; a group's row carries its first member, so it sorts, filters and
 * selects like one.
 */
export function foldShortLived(
  rows: readonly Row[],
  ended: boolean,
  blockers: ReadonlySet<string> = new Set(),
): readonly (Row & { folded?: ShownRow['folded'] })[] {
  // A watch without a run has no row that could fold (the rule needs a run's verdict): 20,000 rows skip the grouping.
  if (!rows.some((row) => isTransient(row.holder, row.attribution, null))) return rows;
  const { kept, groups } = foldTransient(
    rows,
    (row) => ({ holder: row.holder, attribution: row.attribution }),
    (row) => (row.state !== 'ended' && row.state !== 'gone') || blockers.has(row.key),
    ended,
  );
  const folded = groups.map((group) => {
    const first = group.members.reduce((a, b) => (b.sinceMs < a.sinceMs ? b : a));
    return { ...first, key: `fold:${first.key}`, folded: { count: group.files, dir: group.dir, firstKey: first.key } };
  });
  return [...kept, ...folded];
}

export function shownRows(
  rows: Iterable<ListedRow>,
  settings: Pick<SettingsSlice, 'sort' | 'filter'>,
  highlighted: ReadonlySet<string> = new Set(),
): ShownRow[] {
  const needle = settings.filter.trim().toLowerCase();
  const { descending } = settings.sort;
  const column = HOLDER_COLUMNS.find((c) => c.id === settings.sort.column) ?? HOLDER_COLUMNS[0];
  // Each row's sort value is taken once, not twice per comparison: building a text value is the sort's cost.
  const out: { row: ShownRow; value: string | number }[] = [];
  for (const row of rows) {
    if (needle && !matches(row, needle)) continue;
    out.push({ row: { ...row, highlighted: highlighted.has(row.key) }, value: column.sortValue(row) });
  }
  const sign = descending ? -1 : 1;
  // The key breaks ties, so equal rows keep one order across updates (rows never swap places).
  out.sort(({ row: a, value: x }, { row: b, value: y }) => (x < y ? -sign : x > y ? sign : 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out.map((entry) => entry.row);
}

function matches(row: ListedRow, needle: string): boolean {
  return HOLDER_COLUMNS.some((c) => 'filterText' in c && c.filterText(row).toLowerCase().includes(needle));
}

/**
 * The table while a run is shown: what holds now, and every holder the run recorded that no longer
 * does, marked ended — after a run, the answer stays on screen (a leaking process that exited is
 * still the one to click).
 */
export function withRunHolders(live: ReadonlyMap<string, Row>, record: RunRecord | null): Row[] {
  if (!record) return [...live.values()];
  const recorded = new Map(record.holders.map((h) => [holderKey(h), h]));
  // The record folds a child's inherited copy of a handle into its parent's row (alsoHeldBy).
  const inheritedKeys = (h: AttributedHolder) => (h.alsoHeldBy ?? []).map((a) => holderKey({ ...h, pid: a.pid, processStartedAtMs: a.processStartedAtMs }));
  const inherited = new Set(record.holders.flatMap(inheritedKeys));
  // A child the run's polls never met holding its parent's recorded handle (the app's own watch met
  // a loop's forked `sleep > f`): the same handle, inherited, not a stranger.
  const recordedStart = new Map(record.holders.map((h) => [`${h.pid}\0${inheritedCopyKey(h)}`, h.processStartedAtMs]));
  const copyOfRecorded = ({ holder }: Row) => (recordedStart.get(`${holder.ppid}\0${inheritedCopyKey(holder)}`) ?? Infinity) <= holder.processStartedAtMs;
  // A gone row the run recorded is replaced by its ended row (or its parent's); a stranger's fades as usual.
  const kept = [...live.values()].filter((row) => row.state !== 'gone' || (!recorded.has(row.key) && !inherited.has(row.key) && !copyOfRecorded(row)));
  const holding = new Set(kept.filter((row) => row.state !== 'gone').map((row) => row.key));
  // A child still holding the copy the record folded into its parent's row is that row, while the
  // parent holds too (a writer's forked sleep); once the parent no longer does, the child is shown.
  const foldedIntoHolding = new Set(record.holders.filter((h) => holding.has(holderKey(h))).flatMap(inheritedKeys));
  const rows = kept.filter((row) => !foldedIntoHolding.has(row.key));
  for (const [key, h] of recorded) {
    if (!holding.has(key))
      rows.push({ key, holder: h, attribution: h.attribution, sinceMs: Date.parse(h.attribution.firstSeenAt), state: 'ended', changedAtMs: 0 });
  }
  return rows;
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

/** How many handles rows stand for: a folded row counts as the files in it. */
export function handlesIn(rows: readonly ShownRow[]): number {
  return rows.reduce((total, r) => total + (r.folded?.count ?? 1), 0);
}

/** The row's handle is still held (not closed, its process not exited). */
export const stillHolds = (row: Row): boolean => row.state !== 'ended' && row.state !== 'gone';

/** What the count line and the legend say about the shown rows. */
export interface ShownSummary {
  /** The handles the rows stand for (handlesIn), and of them those no longer held. */
  handles: number;
  endedHandles: number;
  /** The marks on screen: the legend explains only those. */
  marks: { new: boolean; ended: boolean; highlighted: boolean; folded: boolean; closedByGc: boolean };
}

/** The count line's and the legend's facts in one walk over the rows (they took eight walks of 20,000 rows). */
export function summarizeShown(rows: readonly ShownRow[]): ShownSummary {
  const summary: ShownSummary = { handles: 0, endedHandles: 0, marks: { new: false, ended: false, highlighted: false, folded: false, closedByGc: false } };
  const { marks } = summary;
  for (const row of rows) {
    const handles = row.folded?.count ?? 1;
    summary.handles += handles;
    if (!stillHolds(row)) {
      summary.endedHandles += handles;
      marks.ended = true;
    }
    if (row.state === 'new') marks.new = true;
    if (row.highlighted) marks.highlighted = true;
    if (row.folded) marks.folded = true;
    if (row.attribution?.verdict === 'closed-by-gc') marks.closedByGc = true;
  }
  return summary;
}

/** One line of the table: a holder's row, or the header of one process's rows when grouped by process. */
export type ProcessItem =
  | { type: 'row'; row: ShownRow; inGroup: boolean }
  | { type: 'group'; key: string; first: ShownRow; rows: number; files: number; holding: number; collapsed: boolean };

/** A line of the table: a process item, or the header of a run's section (store/sections.ts), folded or open. */
export type TableItem = ProcessItem | { type: 'section'; section: 'outlived' | 'outside'; count: number; collapsed: boolean };

/** A process with more rows than this starts folded: a runner leaving 4,000 files reads as one line until opened. */
export const GROUP_OPEN_AT_MOST = 20;

/**
 * The shown rows grouped by process (pid and start time): a process with two or more rows gets a
 * header that counts them and folds them; groups keep the order of their first row under the
 * current sort, and a process with one row stays a plain row. `toggled` holds the groups the user
 * opened or folded against their default (open up to GROUP_OPEN_AT_MOST rows).
 */
export function groupByProcess(rows: readonly ShownRow[], toggled: ReadonlySet<string>): ProcessItem[] {
  const byProcess = new Map<string, ShownRow[]>();
  for (const row of rows) {
    const key = processKey(row.holder);
    const members = byProcess.get(key);
    if (members) members.push(row);
    else byProcess.set(key, [row]);
  }
  const items: ProcessItem[] = [];
  for (const [key, members] of byProcess) {
    const first = members[0]!;
    if (members.length === 1) {
      items.push({ type: 'row', row: first, inGroup: false });
      continue;
    }
    const collapsed = members.length > GROUP_OPEN_AT_MOST !== toggled.has(key);
    const files = handlesIn(members);
    const holding = handlesIn(members.filter(stillHolds));
    items.push({ type: 'group', key, first, rows: members.length, files, holding, collapsed });
    if (!collapsed) for (const row of members) items.push({ type: 'row', row, inGroup: true });
  }
  return items;
}

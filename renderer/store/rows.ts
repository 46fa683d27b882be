// The live table's rows: one per holder key, marked when they appear or go so the eye can follow
// them; gone rows stay in place, faded, until swept, so nothing jumps under the cursor.
import type { Holder } from '../../contract/holders.js';
import type { Attribution } from '../../contract/runs.js';

/** `ended`: a holder of the run that no longer holds (its handle closed, or its process exited); kept, not swept. */
export type RowState = 'new' | 'live' | 'gone' | 'ended';

export interface Row {
  key: string;
  holder: Holder;
  attribution: Attribution | null;
  /** When holdwatch first saw it (ms since epoch). */
  sinceMs: number;
  state: RowState;
  /** When `state` last changed, by the renderer's clock: the sweep uses it. */
  changedAtMs: number;
}

/** How long a row stays marked new, and a gone row stays visible. */
export const MARK_MS = 4000;

/** `mark`: false for what the first scan finds (it was there before we looked: not news). */
export function upsertRow(
  rows: Map<string, Row>,
  key: string,
  holder: Holder,
  attribution: Attribution | null,
  atMs: number,
  nowMs: number,
  mark = true,
): void {
  const row = rows.get(key);
  if (!row || row.state === 'gone') {
    rows.set(key, {
      key,
      holder,
      attribution,
      sinceMs: attribution ? Date.parse(attribution.firstSeenAt) : atMs,
      state: mark ? 'new' : 'live',
      changedAtMs: nowMs,
    });
    return;
  }
  if (attribution) rows.set(key, { ...row, attribution, sinceMs: Date.parse(attribution.firstSeenAt) });
}

/** The row's process exec'd: the same holding, shown as it is now; its mark and time stay. */
export function changeRow(rows: Map<string, Row>, key: string, holder: Holder, attribution: Attribution | null): void {
  const row = rows.get(key);
  if (row && row.state !== 'gone') rows.set(key, { ...row, holder, ...(attribution ? { attribution } : {}) });
}

export function markGone(rows: Map<string, Row>, key: string, nowMs: number): void {
  const row = rows.get(key);
  if (row && row.state !== 'gone') rows.set(key, { ...row, state: 'gone', changedAtMs: nowMs });
}

/** Settles marks older than MARK_MS; returns null when nothing changed (no re-render). */
export function sweepRows(rows: ReadonlyMap<string, Row>, nowMs: number): Map<string, Row> | null {
  let next: Map<string, Row> | null = null;
  for (const row of rows.values()) {
    if (row.state === 'live' || nowMs - row.changedAtMs < MARK_MS) continue;
    next ??= new Map(rows);
    if (row.state === 'gone') next.delete(row.key);
    else next.set(row.key, { ...row, state: 'live' });
  }
  return next;
}

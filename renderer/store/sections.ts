// A run's table reads in the order of the answer: the run's own holders first; then those whose
// process outlived the run, a section of their own; then, folded into one counted line, the holders
// of processes outside the run (an indexer, an editor, other programs' files in a shared temp dir).
// An outsider that blocked a cleanup is part of the answer and stays among the run's rows.
import { groupByProcess, type ShownRow, type TableItem } from './derive.js';

export type SectionId = 'outlived' | 'outside';

/** The key of a section's fold in settings.toggledGroups (beside the process groups' keys). */
export const sectionKey = (section: SectionId): string => `section:${section}`;

const sectionOf = (row: ShownRow): SectionId | null => {
  const verdict = row.attribution?.verdict;
  if (row.highlighted || verdict === 'blocked-cleanup') return null;
  if (verdict === 'outlived-run') return 'outlived';
  // With a run shown, a row without a verdict is the app's own watch seeing a process the run does not know.
  return verdict === undefined || verdict === 'outside-run' ? 'outside' : null;
};

/**
 * The items of a run's table: its own rows, then each non-empty section under a header that counts it.
 * The outlived section starts open, the outside one folded; `toggled` holds those the user flipped.
 */
export function sectionedItems(rows: readonly ShownRow[], toggled: ReadonlySet<string>, grouped: boolean): TableItem[] {
  const parts: Record<'own' | SectionId, ShownRow[]> = { own: [], outlived: [], outside: [] };
  for (const row of rows) parts[sectionOf(row) ?? 'own'].push(row);
  const itemsOf = (part: readonly ShownRow[]): TableItem[] =>
    grouped ? groupByProcess(part, toggled) : part.map((row) => ({ type: 'row', row, inGroup: false }));
  const items = itemsOf(parts.own);
  for (const section of ['outlived', 'outside'] as const) {
    const members = parts[section];
    if (members.length === 0) continue;
    const collapsed = (section === 'outside') !== toggled.has(sectionKey(section));
    items.push({ type: 'section', section, count: members.length, collapsed });
    if (!collapsed) items.push(...itemsOf(members));
  }
  return items;
}

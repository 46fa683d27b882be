// The holders table's columns, described once: the Markdown and the HTML report draw their header,
// their rows and their folded rows from this list, each writing values its own way (CellFormat).
// A new column is one entry here.
import type { AttributedHolder, RunRecord, Verdict } from '../../contract/runs.js';
import type { TransientGroup } from '../../contract/transient.js';
import { displayPath, groupTestsCell, holderPath, openingTest, processLabel } from './model.js';

/** How one report language writes what a cell holds. */
export interface CellFormat {
  /** A machine value: a name, a test. */
  code(text: string): string;
  /** A path: the Markdown's main table shortens it in the middle. */
  path(text: string): string;
  verdict(verdict: Verdict): string;
  /** A folded group's files: the summary, with the files a click away where the language can. */
  files(summary: string, paths: readonly string[]): string;
}

export type HolderRow = { kind: 'holder'; holder: AttributedHolder } | { kind: 'group'; group: TransientGroup<AttributedHolder> };

export interface HolderColumn {
  label: string;
  /**
   * In the Markdown's main table, made for an issue's width: what, who, which test, verdict. The
   * other columns fold under it, beside the `key` columns that say which row is which.
   */
  main: boolean;
  key?: boolean;
  holder(h: AttributedHolder, record: RunRecord, f: CellFormat): string;
  group(g: TransientGroup<AttributedHolder>, record: RunRecord, f: CellFormat): string;
}

const dash = '—';

export const HOLDER_COLUMNS: readonly HolderColumn[] = [
  {
    label: 'Path',
    main: true,
    key: true,
    holder: (h, record, f) => `${f.path(holderPath(record, h))}${h.kind === 'file' ? '' : ` (${h.kind})`}`,
    group: (g, record, f) =>
      f.files(
        `${f.path((displayPath(record, g.dir) || '.') + '/')} ${g.files} short-lived files`,
        g.members.map((h) => holderPath(record, h)),
      ),
  },
  {
    label: 'Process (PID)',
    main: true,
    key: true,
    holder: (h, _record, f) => `${f.code(processLabel(h))} ${h.pid}`,
    group: (g, _record, f) => `${f.code(processLabel(g.members[0]!))} ${g.pid}`,
  },
  {
    label: 'Opened during',
    main: true,
    holder: (h, _record, f) => (openingTest(h) === null ? dash : f.code(openingTest(h)!)),
    group: (g, _record, f) => groupTestsCell(g.members, (t) => f.code(t)),
  },
  { label: 'Verdict', main: true, holder: (h, _record, f) => f.verdict(h.attribution.verdict), group: (_g, _record, f) => f.verdict('in-run') },
  { label: 'Kind', main: false, holder: (h) => h.kind, group: () => 'files' },
  {
    label: 'Spawned during',
    main: false,
    holder: (h, _record, f) => (h.attribution.spawnedDuring === null ? dash : f.code(h.attribution.spawnedDuring)),
    group: (g, _record, f) => (g.members[0]!.attribution.spawnedDuring === null ? dash : f.code(g.members[0]!.attribution.spawnedDuring)),
  },
];

/** The cells of one row under `columns`. */
export function holderCells(columns: readonly HolderColumn[], row: HolderRow, record: RunRecord, f: CellFormat): string[] {
  return columns.map((c) => (row.kind === 'holder' ? c.holder(row.holder, record, f) : c.group(row.group, record, f)));
}

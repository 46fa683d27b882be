// The GitHub Actions step summary: the headline and the worst holders, short enough to read on the
// run page. The caller appends it to $GITHUB_STEP_SUMMARY (core does not touch files).
import type { RunRecord } from '../../contract/runs.js';
import { headline } from './headline.js';
import { HOLDER_COLUMNS, holderCells } from './holder-columns.js';
import { mdFormat, mdInline, mdTable, summaryLine } from './markdown.js';
import { bodyPassedTeardownFailed, sortedHolders, splitOutsiders } from './model.js';
import { prepare, type ReportOptions } from './options.js';
import { mdCode } from './text.js';

const SUMMARY_ROWS = 10;

export function renderStepSummary(input: RunRecord, options: ReportOptions = {}): string {
  const { record } = prepare(input, options);
  // The rows that matter: the run's own past their test, and outsiders only where they block a cleanup.
  const holders = splitOutsiders(record, sortedHolders(record)).own.filter((h) => h.attribution.verdict !== 'in-run');
  const parts = [`### holdwatch: ${mdInline(headline(record))}`, summaryLine(record, sortedHolders(record))];
  const misleading = record.tests.filter(bodyPassedTeardownFailed);
  if (misleading.length > 0) {
    parts.push(misleading.map((t) => `- ${mdCode(t.name)}: body passed, teardown failed`).join('\n'));
  }
  if (holders.length > 0) {
    const columns = HOLDER_COLUMNS.filter((c) => c.main);
    const rows = holders.map((holder) => holderCells(columns, { kind: 'holder', holder }, record, mdFormat(true)));
    parts.push(
      mdTable(
        columns.map((c) => c.label),
        rows,
        Math.min(SUMMARY_ROWS, options.maxRows ?? SUMMARY_ROWS),
        'holders',
      ),
    );
  }
  return `${parts.join('\n\n')}\n`;
}

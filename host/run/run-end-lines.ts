// What `holdwatch run` prints last: the counts, then the answer (the report's own headline) and where
// the whole report is. A CI log is read from its end, so the answer is among its last lines.
import type { RunRecord } from '../../contract/runs.js';
import { headline, headlineText } from '../../core/report/headline.js';
import { terminalCell } from '../../core/report/text.js';
import { runSummaryLine } from './run-recording.js';

export interface RunEndOptions {
  /** The report files written, as the user named them. */
  reports: readonly string[];
  /** `--quiet`: the counts line alone. */
  quiet?: boolean;
}

export function runEndLines(record: RunRecord, journalPath: string, options: RunEndOptions): string {
  const counts = runSummaryLine(record, journalPath);
  if (options.quiet) return counts;
  const where =
    options.reports.length > 0
      ? `the report${options.reports.length === 1 ? '' : 's'}: ${options.reports.map(terminalCell).join(', ')}`
      : `the report: holdwatch report ${record.runId}`;
  return `${counts}holdwatch: ${terminalCell(headlineText(headline(record)))}\nholdwatch: ${where}\n`;
}

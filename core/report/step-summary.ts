// The GitHub Actions step summary: the headline and the worst holders, short enough to read on the
// run page. The caller appends it to $GITHUB_STEP_SUMMARY (core does not touch files).
import type { RunRecord } from '../../contract/runs.js';
import { headline } from './headline.js';
import { mdInline, mdTable, summaryLine } from './markdown.js';
import { bodyPassedTeardownFailed, holderPath, sortedHolders } from './model.js';
import { prepare, type ReportOptions } from './options.js';
import { mdCode } from './text.js';

const SUMMARY_ROWS = 10;

export function renderStepSummary(input: RunRecord, options: ReportOptions = {}): string {
  const { record } = prepare(input, options);
  const holders = sortedHolders(record).filter((h) => h.attribution.verdict !== 'in-run');
  const parts = [`### holdwatch: ${mdInline(headline(record))}`, summaryLine(record, sortedHolders(record))];
  const misleading = record.tests.filter(bodyPassedTeardownFailed);
  if (misleading.length > 0) {
    parts.push(misleading.map((t) => `- ${mdCode(t.name)}: body passed, teardown failed`).join('\n'));
  }
  if (holders.length > 0) {
    const rows = holders.map((h) => [
      mdCode(h.processName),
      String(h.pid),
      mdCode(holderPath(record, h)),
      h.attribution.verdict,
      h.attribution.spawnedDuring === null ? '—' : mdCode(h.attribution.spawnedDuring),
    ]);
    parts.push(mdTable(['Process', 'PID', 'Path', 'Verdict', 'Spawned during'], rows, Math.min(SUMMARY_ROWS, options.maxRows ?? SUMMARY_ROWS), 'holders'));
  }
  return `${parts.join('\n\n')}\n`;
}

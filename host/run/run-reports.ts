// Writes a run's reports where the user asked (report-targets.ts checked the places before the run),
// and a GitHub Actions step summary where the front end says (GITHUB_STEP_SUMMARY).
import { appendFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import type { RunRecord } from '../../contract/runs.js';
import { jsonChunks, renderHtml, renderJson, renderMarkdown, renderStepSummary, type ReportOptions } from '../../core/report/index.js';
import { codeOf } from '../../core/errors.js';
import { writePrivateFile } from '../private-files.js';
import type { ReportTargets } from './report-targets.js';

export type ReportFormat = 'md' | 'json' | 'html';

export function reportOptions(redact: boolean | undefined): ReportOptions {
  return redact ? { redact: { home: homedir(), user: userInfo().username } } : {};
}

export function renderReport(record: RunRecord, format: ReportFormat, options: ReportOptions): string {
  if (format === 'json') return renderJson(record, options);
  if (format === 'html') return renderHtml(record, options);
  return renderMarkdown(record, options);
}

/**
 * Writes each report asked for; one that fails (a disk that filled during the run) does not stop the
 * others. Returns a line for each failure: the caller says them and keeps the command's exit code.
 */
export function writeRunReports(record: RunRecord, targets: ReportTargets): string[] {
  const options = reportOptions(targets.redact);
  const failures: string[] = [];
  const attempt = (target: string | undefined, write: (path: string) => void) => {
    if (!target) return;
    try {
      write(target);
    } catch (error) {
      failures.push(`could not write ${target}: ${codeOf(error)}`);
    }
  };
  // Reports hold the run's command lines: this user's alone, like the journal they are made from.
  attempt(targets.report, (path) => writePrivateFile(path, renderReport(record, 'md', options)));
  // Written as it is rendered: the JSON of a 100,000-test run is never one string in memory.
  attempt(targets.json, (path) => writePrivateFile(path, jsonChunks(record, options)));
  attempt(targets.html, (path) => writePrivateFile(path, renderReport(record, 'html', options)));
  attempt(targets.stepSummary, (path) => appendFileSync(path, renderStepSummary(record, options) + '\n'));
  return failures;
}

// Writes a run's reports where the user asked (never inside a watched dir), and a GitHub Actions step
// summary where the front end says (GITHUB_STEP_SUMMARY).
import { appendFileSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { resolve } from 'node:path';
import type { RunRecord } from '../../contract/runs.js';
import type { WatchDir } from '../../core/platform.js';
import { renderHtml, renderJson, renderMarkdown, renderStepSummary, type ReportOptions } from '../../core/report/index.js';
import { refuseInsideWatched } from '../watched-dirs.js';

export type ReportFormat = 'md' | 'json' | 'html';

export interface ReportTargets {
  report?: string;
  json?: string;
  html?: string;
  redact?: boolean;
  /** GitHub Actions' step summary file (GITHUB_STEP_SUMMARY): the summary is appended there. */
  stepSummary?: string;
}

export function reportOptions(redact: boolean | undefined): ReportOptions {
  return redact ? { redact: { home: homedir(), user: userInfo().username } } : {};
}

export function renderReport(record: RunRecord, format: ReportFormat, options: ReportOptions): string {
  if (format === 'json') return renderJson(record, options);
  if (format === 'html') return renderHtml(record, options);
  return renderMarkdown(record, options);
}

/** The targets as absolute paths, against `cwd`: holdwatch steps out of a watched dir before it writes them. */
export function absoluteTargets<T extends ReportTargets>(targets: T, cwd: string): T {
  const absolute = (path: string | undefined) => (path === undefined ? undefined : resolve(cwd, path));
  return { ...targets, report: absolute(targets.report), json: absolute(targets.json), html: absolute(targets.html) };
}

/** Refuses, before the run starts, a report path (absolute) inside a watched dir: holdwatch never writes there. */
export function checkReportTargets(targets: ReportTargets, dirs: readonly WatchDir[]): void {
  for (const target of [targets.report, targets.json, targets.html]) {
    if (!target) continue;
    refuseInsideWatched(target, dirs, (d) => `report ${target} would be written inside the watched directory ${d.display}`);
  }
}

export function writeRunReports(record: RunRecord, targets: ReportTargets): void {
  const options = reportOptions(targets.redact);
  if (targets.report) writeFileSync(targets.report, renderReport(record, 'md', options));
  if (targets.json) writeFileSync(targets.json, renderReport(record, 'json', options));
  if (targets.html) writeFileSync(targets.html, renderReport(record, 'html', options));
  if (targets.stepSummary) appendFileSync(targets.stepSummary, renderStepSummary(record, options) + '\n');
}

// Writes a run's reports where the user asked (never inside a watched dir), and a GitHub Actions step
// summary where the front end says (GITHUB_STEP_SUMMARY).
import { accessSync, appendFileSync, constants, lstatSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { RunRecord } from '../../contract/runs.js';
import type { WatchDir } from '../../core/platform.js';
import { jsonChunks, renderHtml, renderJson, renderMarkdown, renderStepSummary, type ReportOptions } from '../../core/report/index.js';
import { BadInputError, codeOf } from '../../core/errors.js';
import { writePrivateFile } from '../private-files.js';
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
  const absolute = (path: string | undefined) => {
    if (path === '') throw new BadInputError('a report path is empty');
    return path === undefined ? undefined : resolve(cwd, path);
  };
  return { ...targets, report: absolute(targets.report), json: absolute(targets.json), html: absolute(targets.html) };
}

/**
 * Refuses, before the run starts, a report path (absolute) inside a watched dir (holdwatch never writes
 * there), and one that could not be written: its folder missing, not a folder or not writable, or the
 * path a directory. Finding out after the run would cost the suite's time and its exit code.
 */
export function checkReportTargets(targets: ReportTargets, dirs: readonly WatchDir[]): void {
  for (const target of [targets.report, targets.json, targets.html]) {
    if (!target) continue;
    refuseInsideWatched(target, dirs, (d) => `report ${target} would be written inside the watched directory ${d.display}`);
    checkWritable(target);
  }
}

function checkWritable(target: string): void {
  const folder = dirname(target);
  const stats = statSync(folder, { throwIfNoEntry: false });
  if (!stats) throw new BadInputError(`report ${target} cannot be written: no such directory ${folder}`);
  if (!stats.isDirectory()) throw new BadInputError(`report ${target} cannot be written: ${folder} is not a directory`);
  const existing = statSync(target, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new BadInputError(`report ${target} is a directory`);
  // Reports are written 0600 and never through a link, nor into another user's file (private-files.ts):
  // said now, not after the run.
  if (lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink())
    throw new BadInputError(`report ${target} is a symbolic link: holdwatch does not write through links`);
  const uid = process.geteuid?.();
  if (existing && uid !== undefined && existing.uid !== uid) throw new BadInputError(`report ${target} belongs to uid ${existing.uid}, not to this user`);
  try {
    accessSync(existing ? target : folder, constants.W_OK);
  } catch (error) {
    throw new BadInputError(`report ${target} cannot be written: ${codeOf(error)}`);
  }
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

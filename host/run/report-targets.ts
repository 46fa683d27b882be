// Where a run's reports go, checked before the run starts: never inside a watched dir, and never a place
// that could not be written. Apart from the renderers (run-reports.ts), which a run loads only at its
// end and only when it writes a report: a short suite's start does not pay for them.
import { accessSync, constants, lstatSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { WatchDir } from '../../core/platform.js';
import { BadInputError, codeOf } from '../../core/errors.js';
import { refuseInsideWatched } from '../watched-dirs.js';

export interface ReportTargets {
  report?: string;
  json?: string;
  html?: string;
  redact?: boolean;
  /** GitHub Actions' step summary file (GITHUB_STEP_SUMMARY): the summary is appended there. */
  stepSummary?: string;
}

/** Whether any report, or a step summary, is to be written. */
export function anyReportTarget(targets: ReportTargets): boolean {
  return Boolean(targets.report || targets.json || targets.html || targets.stepSummary);
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

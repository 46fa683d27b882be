// `holdwatch report <run> [--format md|json|html] [--redact]`: renders a run again from its journal.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BadInputError } from '../core/errors.js';
import { dataDirOf, runsPathIn } from '../host/data-dir.js';
import { recordOfJournal } from '../host/holdwatch.js';
import { renderReport, reportOptions, type ReportFormat } from '../host/run/run-reports.js';

export async function reportCommand(run: string, options: { format: ReportFormat; redact?: boolean }): Promise<number> {
  const path = journalPathOf(run);
  const { record, rejected } = await recordOfJournal(path, run);
  if (rejected > 0) process.stderr.write(`holdwatch: skipped ${rejected} malformed journal line(s) in ${path}\n`);
  process.stdout.write(renderReport(record, options.format, reportOptions(options.redact)));
  return 0;
}

function journalPathOf(run: string): string {
  if (run.trim() === '' || run.includes('\0')) throw new BadInputError('no run given');
  // A path that exists is read as a journal, whatever its name: one that is not says so, not "no such run".
  if ((run.endsWith('.jsonl') || !/^[\w.-]+$/.test(run)) && existsSync(run)) return regularFile(run);
  const runs = runsPathIn(dataDirOf(process.env, process.platform));
  const byId = join(runs, `${run}.jsonl`);
  if (/^[\w.-]+$/.test(run) && existsSync(byId)) return regularFile(byId);
  if (existsSync(run)) return regularFile(run);
  throw new BadInputError(`no such run: ${run} (\`holdwatch runs\` lists the ids; or give a journal path)`);
}

/** A journal is a regular file: a directory, a FIFO (which would block the read forever) or a device is refused. */
function regularFile(path: string): string {
  if (!statSync(path).isFile()) throw new BadInputError(`not a journal file: ${path} (a directory, FIFO or device)`);
  return path;
}

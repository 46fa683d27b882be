// `holdwatch report <run> [--format md|json|html] [--redact]`: renders a run again from its journal.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BadInputError } from '../core/errors.js';
import { RunRecorder } from '../core/run/run-recorder.js';
import { dataDirOf, runsPathIn } from '../host/data-dir.js';
import { readJournal } from '../host/run/journal-reader.js';
import { renderReport, reportOptions, type ReportFormat } from '../host/run/run-reports.js';

export async function reportCommand(run: string, options: { format: ReportFormat; redact?: boolean }): Promise<number> {
  const path = journalPathOf(run);
  const recorder = new RunRecorder();
  const { entries, rejected } = readJournal(path);
  if (entries[0]?.t !== 'run-start') throw new BadInputError(`not a holdwatch run journal: ${run}`);
  if (rejected > 0) process.stderr.write(`holdwatch: skipped ${rejected} malformed journal line(s) in ${path}\n`);
  for (const entry of entries) recorder.apply(entry);
  process.stdout.write(renderReport(recorder.record(), options.format, reportOptions(options.redact)));
  return 0;
}

function journalPathOf(run: string): string {
  if (run.trim() === '' || run.includes('\0')) throw new BadInputError('no run given');
  if (run.endsWith('.jsonl') && existsSync(run)) return run;
  const runs = runsPathIn(dataDirOf(process.env, process.platform));
  const byId = join(runs, `${run}.jsonl`);
  if (/^[\w.-]+$/.test(run) && existsSync(byId)) return byId;
  throw new BadInputError(`no such run: ${run} (give a run id from ${runs} or a journal path)`);
}

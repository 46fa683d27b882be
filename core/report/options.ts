// Options every renderer takes. Facts (home dir, user name) come in as arguments: core reads no environment.
import type { RunRecord } from '../../contract/runs.js';
import { redactRecord, type RedactOptions } from './redact.js';

export interface ReportOptions {
  /** Replace the home directory and the user name everywhere before rendering (`--redact`). */
  redact?: RedactOptions;
  /** Rows per table before a "… and N more" line; the JSON always has everything. */
  maxRows?: number;
}

export const DEFAULT_MAX_ROWS = 50;

export function prepare(record: RunRecord, options: ReportOptions): { record: RunRecord; maxRows: number } {
  return {
    record: options.redact ? redactRecord(record, options.redact) : record,
    maxRows: Math.max(1, options.maxRows ?? DEFAULT_MAX_ROWS),
  };
}

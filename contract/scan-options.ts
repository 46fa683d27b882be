// `holdwatch scan`'s options, each written once: its flag, its help, and what it asks of the scan.
// commander's parser (cli/main.ts) and the plain one (cli/scan-args.ts) are both made from this table,
// so a new option is one entry here plus what it does (cli/scan-command.ts when it changes what is
// printed, the scan request below when it changes what is scanned). No zod: a plain scan loads none.
import type { ScanRequest } from './scan-worker.js';

export const SCAN_FLAGS = [
  { name: 'json', flag: '--json', help: 'print one JSON object (the Snapshot contract)' },
  { name: 'check', flag: '--check', help: 'exit 1 when anything holds the directory' },
] as const;

export type ScanFlag = (typeof SCAN_FLAGS)[number]['name'];

/** The options as both parsers hand them over. */
export type ScanOptions = Partial<Record<ScanFlag, boolean>>;

/** What the options ask of the backend's scan (ScanRequest), beyond the dir; none of today's do. */
export function scanRequestOf(_options: ScanOptions): Omit<ScanRequest, 'dirs'> {
  return {};
}

// `--json`: the whole record, always in the same key order whatever order the supervisor built the
// objects in, so two runs diff cleanly and scripts can rely on the layout.
import type { RunRecord } from '../../contract/runs.js';
import { redactRecord, type RedactOptions } from './redact.js';

// Known keys in reading order (record, test, holder, attribution, failure, leftover, versions).
// A key not listed (a field added later) follows the known ones, alphabetically.
const KEY_ORDER = [
  'runId',
  'command',
  'cwd',
  'watched',
  'platform',
  'exitCode',
  'startedAt',
  'endedAt',
  'stoppedWhile',
  'versions',
  'tests',
  'holders',
  'failures',
  'leftovers',
  'name',
  'outcome',
  'phase',
  'phases',
  'phaseTimes',
  'setup',
  'call',
  'teardown',
  'at',
  'text',
  'kind',
  'code',
  'test',
  'path',
  'createdDuring',
  'pid',
  'ppid',
  'processStartedAtMs',
  'processName',
  'commandLine',
  'user',
  'deleted',
  'handle',
  'watchedDir',
  'attribution',
  'verdict',
  'spawnedDuring',
  'firstSeenDuring',
  'firstSeenAt',
  'lastSeenAt',
  'ancestry',
  'holdwatch',
  'node',
  'os',
];
const RANK = new Map(KEY_ORDER.map((key, index) => [key, index]));

function compareKeys(a: string, b: string): number {
  const ra = RANK.get(a) ?? KEY_ORDER.length;
  const rb = RANK.get(b) ?? KEY_ORDER.length;
  return ra - rb || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * One object with its keys in order, as JSON.stringify meets it: its values are ordered when they are
 * met in turn, so no ordered copy of a whole record (100,000 tests) is ever held beside it.
 */
function orderedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  entries.sort(([a], [b]) => compareKeys(a, b));
  return Object.fromEntries(entries);
}

/** The record as the `--json` file: stable key order, 2-space indent, one trailing newline. */
export function renderJson(record: RunRecord, options: { redact?: RedactOptions } = {}): string {
  const shown = options.redact ? redactRecord(record, options.redact) : record;
  return `${JSON.stringify(shown, orderedKeys, 2)}\n`;
}

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
  const object = value as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of orderOf(Object.keys(object))) if (object[key] !== undefined) ordered[key] = object[key];
  return ordered;
}

// A record repeats a few shapes (each test's, each phase time's) up to 100,000 times: each shape's
// order is sorted once. Bounded, for a record of many shapes (a versions map of any keys).
const ORDERS = new Map<string, readonly string[]>();
const MAX_ORDERS = 256;

function orderOf(keys: string[]): readonly string[] {
  const shape = keys.join('\n');
  const known = ORDERS.get(shape);
  // Only shapes whose keys hold no newline are kept: the same count of keys then means the same keys.
  if (known !== undefined && known.length === keys.length) return known;
  const order = [...keys].sort(compareKeys);
  if (ORDERS.size < MAX_ORDERS && shape.split('\n').length === keys.length) ORDERS.set(shape, order);
  return order;
}

/** The record as the `--json` file: stable key order, 2-space indent, one trailing newline. */
export function renderJson(record: RunRecord, options: { redact?: RedactOptions } = {}): string {
  return [...jsonChunks(record, options)].join('');
}

/** About how many characters each of jsonChunks' pieces holds. */
export const JSON_CHUNK_CHARS = 1 << 16;

/**
 * renderJson's text in pieces of about JSON_CHUNK_CHARS, for a file written as they come: the record's
 * arrays are stringified an item at a time, so a 100,000-test record never becomes one 40 MB string.
 */
export function* jsonChunks(record: RunRecord, options: { redact?: RedactOptions } = {}): Generator<string> {
  const shown = (options.redact ? redactRecord(record, options.redact) : record) as unknown as Record<string, unknown>;
  let parts: string[] = [];
  let size = 0;
  const put = (text: string) => {
    parts.push(text);
    size += text.length;
  };
  const full = () => size >= JSON_CHUNK_CHARS;
  const take = () => {
    const chunk = parts.join('');
    parts = [];
    size = 0;
    return chunk;
  };
  // JSON.stringify(shown, orderedKeys, 2), one level down at a time: the same text, nested values
  // indented by re-indenting their own lines (a JSON string never holds a raw newline).
  const nested = (value: unknown, indent: string) => JSON.stringify(value, orderedKeys, 2).replaceAll('\n', `\n${indent}`);
  const keys = Object.keys(shown)
    .filter((key) => shown[key] !== undefined)
    .sort(compareKeys);
  put('{');
  for (const [i, key] of keys.entries()) {
    const value = shown[key];
    put(`${i === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `);
    if (!Array.isArray(value) || value.length === 0) {
      put(nested(value, '  '));
      continue;
    }
    put('[');
    for (const [j, item] of value.entries()) {
      put(`${j === 0 ? '' : ','}\n    ${nested(item, '    ')}`);
      if (full()) yield take();
    }
    put('\n  ]');
  }
  put(keys.length === 0 ? '}\n' : '\n}\n');
  yield take();
}

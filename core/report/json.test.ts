import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { FIXTURE_NAMES, loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { renderJson } from './json.js';

function shuffledKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shuffledKeys);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, shuffledKeys(v)]),
    );
  return value;
}

describe('renderJson', () => {
  it.each(FIXTURE_NAMES)('round-trips %s and keeps the same text whatever order the keys were built in', (name) => {
    const record = loadRunRecord(name);
    const text = renderJson(record);
    expect(JSON.parse(text)).toEqual(record);
    expect(renderJson(shuffledKeys(record) as RunRecord)).toBe(text);
  });

  it('puts the record keys in reading order with a 2-space indent and a final newline', () => {
    const text = renderJson(loadRunRecord('bats-teardown-failed'));
    const topKeys = Object.keys(JSON.parse(text) as object);
    expect(topKeys.slice(0, 4)).toEqual(['runId', 'command', 'cwd', 'watched']);
    expect(topKeys.indexOf('tests')).toBeLessThan(topKeys.indexOf('holders'));
    expect(text.split('\n')[1]).toMatch(/^ {2}"runId": /);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('writes a key it does not know after the known ones instead of dropping it', () => {
    const record = { ...loadRunRecord('clean'), zExtra: 1, aExtra: 2 } as RunRecord;
    const keys = Object.keys(JSON.parse(renderJson(record)) as object);
    expect(keys.slice(-2)).toEqual(['aExtra', 'zExtra']);
  });

  it('renders the redacted record when asked', () => {
    const text = renderJson(loadRunRecord('linux-leaked-past-test'), { redact: { home: '/home/bob', user: 'bob' } });
    expect(text).not.toMatch(/\bbob\b/);
    expect(text).toContain('"cwd": "~/src/notes"');
  });
});

import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../contract/runs.js';
import { FIXTURE_NAMES, loadRunRecord } from '../../tests/fixtures/run-records/load-run-record.js';
import { JSON_CHUNK_CHARS, jsonChunks, renderJson } from './json.js';

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

  it('orders each object of one shape alike, and never takes keys holding a newline for another shape', () => {
    const extra = [{ b: 1, a: 2 }, { 'b\na': 3 }, { b: 4, a: 5 }, { 'b\na': 6 }];
    const record = { ...loadRunRecord('bats-teardown-failed'), extra } as unknown as RunRecord;
    const text = renderJson(record);
    expect(JSON.parse(text)).toEqual(record);
    expect(text).toContain('"a": 5,\n      "b": 4');
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

  it('comes in pieces of about JSON_CHUNK_CHARS that join to the same text, however many tests', () => {
    const base = loadRunRecord('linux-leaked-past-test');
    const test = base.tests[0]!;
    const record = { ...base, tests: Array.from({ length: 3000 }, (_, i) => ({ ...test, name: `test_many.py::test_many[${i}]` })) };
    const chunks = [...jsonChunks(record)];
    expect(chunks.length).toBeGreaterThan(2);
    // A piece ends after the item that filled it: never much more than the bound.
    for (const chunk of chunks) expect(chunk.length).toBeLessThan(JSON_CHUNK_CHARS + 2000);
    const text = chunks.join('');
    // The layout JSON.stringify gives the parsed text, item for item: the pieces change nothing.
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect((JSON.parse(text) as RunRecord).tests).toHaveLength(3000);
  });

  it('renders an empty array and a record without tests as JSON.stringify does', () => {
    const record = { ...loadRunRecord('clean'), tests: [], holders: [] };
    const text = renderJson(record);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    expect(text).toContain('"tests": [],');
  });
});

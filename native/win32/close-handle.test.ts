// What a close makes of the name worker's answer, and how long it waits for one: a handle whose name
// did not come in time is unconfirmed, never "no longer names a file" (which says it was closed).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerForClose, CLOSE_NAMING_DEADLINES } from './close-handle.js';
import { DEFAULT_DEADLINES, NameWorkerClient } from './name-worker-client.js';

const SLOW = join(import.meta.dirname, '../../tests/fixtures/name-worker/slow-worker.mjs');
const target = { pid: 1300, startedAtMs: 1, handle: '0xc8', dirs: [], ownPids: [] };

describe('answerForClose', () => {
  it('refuses a handle the worker did not name in time as unconfirmed, not as closed', () => {
    for (const stalled of [true, false]) {
      const refuse = () => answerForClose(target, { kind: 'unnamed', reason: 'name worker gave no answer in 1000 ms; worker restarted', stalled });
      expect(refuse).toThrow(/^handle 0xc8 of process 1300 could not be named \(name worker gave no answer .*\).*nothing closed; try again$/);
      expect(refuse).not.toThrow(/no longer names/);
    }
  });

  it('gives null for a value that names nothing now (closed), and the name otherwise', () => {
    const answer = { type: 'named' as const, id: 1, index: 0, directory: false, deletePending: false };
    expect(answerForClose(target, { kind: 'named', answer: { ...answer, name: null, error: { api: 'DuplicateHandle', code: 6, denied: false } } })).toBeNull();
    expect(answerForClose(target, { kind: 'named', answer: { ...answer, name: '\\??\\Z:\\w\\a.txt' } })).toEqual({
      name: '\\??\\Z:\\w\\a.txt',
      directory: false,
    });
  });
});

describe('CLOSE_NAMING_DEADLINES', () => {
  it("waits for a worker that answers after a scan's per-query deadline has passed (a loaded machine, Wine)", async () => {
    const lateMs = DEFAULT_DEADLINES.perQueryMs + 500;
    const client = new NameWorkerClient(CLOSE_NAMING_DEADLINES, { script: SLOW, args: [String(lateMs)] });
    try {
      const [outcome] = await client.nameAll([{ pid: 1300, handle: '200' }], []);
      expect(outcome).toMatchObject({ kind: 'named', answer: { name: 'handle 200' } });
    } finally {
      client.dispose();
    }
  });
});

// The journal on a real file: the run's first entry is written at once, every later entry with the rest
// of its turn of the event loop, in one write at the turn's end.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../contract/journal.js';
import { JournalFile } from './journal-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hw-journal-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const stage = (atMs: number): JournalEntry => ({ t: 'stage', atMs, stage: `s${atMs}` });
const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

describe('JournalFile', () => {
  it('writes the first entry at once and each later turn’s entries together at its end', async () => {
    const journal = new JournalFile(join(dir, 'run.jsonl'), (message) => {
      throw new Error(message);
    });
    const onDisk = () =>
      readFileSync(journal.path, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { atMs: number }).atMs);
    try {
      journal.append(stage(1));
      journal.append(stage(2));
      expect(onDisk()).toEqual([1]);
      await turnEnd();
      expect(onDisk()).toEqual([1, 2]);
      journal.append(stage(3));
      journal.append(stage(4));
      expect(onDisk()).toEqual([1, 2]);
      await turnEnd();
      expect(onDisk()).toEqual([1, 2, 3, 4]);
    } finally {
      journal.close();
    }
  });
});

// A run journal read back from disk (`holdwatch report`): every entry validated (contract/journal.ts).
import { readFileSync } from 'node:fs';
import { parseJournal, type JournalEntry } from '../../contract/journal.js';

export function readJournal(path: string): { entries: JournalEntry[]; rejected: number } {
  return parseJournal(readFileSync(path, 'utf8').split('\n'));
}

// The run journal on disk: one JSON object per line, written through at once (a crash loses nothing).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../../core/run/journal-entries.js';
import { parseJournal } from '../../core/run/journal-schema.js';

export class JournalFile {
  private fd: number | null;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'a');
  }

  append(entry: JournalEntry): void {
    if (this.fd === null) return;
    writeSync(this.fd, JSON.stringify(entry) + '\n');
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}

/** Reads a journal back, every entry validated (core/run/journal-schema.ts). */
export function readJournal(path: string): { entries: JournalEntry[]; rejected: number } {
  return parseJournal(readFileSync(path, 'utf8').split('\n'));
}

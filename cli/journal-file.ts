// The run journal on disk: one JSON object per line, written through at once (a crash loses nothing).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../core/run/journal-entries.js';

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

/** Reads a journal back; a torn last line (a crash mid-write) is skipped, not fatal. */
export function readJournal(path: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // torn line
    }
  }
  return entries;
}

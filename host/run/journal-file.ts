// The run journal on disk: one JSON object per line, written through at once (a crash loses nothing).
// Reading one back (journal-reader.ts) validates it with zod; writing needs none, so a run loads none.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../../contract/journal.js';

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

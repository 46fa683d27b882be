// The run journal on disk: one JSON object per line, written through at once (a crash loses nothing).
// Reading one back (journal-reader.ts) validates it with zod; writing needs none, so a run loads none.
// A journal that cannot be written (a full disk, a quota, an I/O error) stops there, said once: the
// run goes on, its output and exit code pass through, and its record is kept in memory. The line the
// failing write cut short is taken back off, so what is on disk still reads as a journal.
import { closeSync, ftruncateSync, writeSync } from 'node:fs';
import type { JournalEntry } from '../../contract/journal.js';
import { codeOf } from '../../core/errors.js';
import { openPrivateFile } from '../private-files.js';

export class JournalFile {
  private fd: number | null = null;
  private entries = 0;
  private bytes = 0;

  constructor(
    readonly path: string,
    private readonly onStopped: (message: string) => void,
  ) {
    try {
      this.fd = openPrivateFile(path, 'a');
    } catch (error) {
      this.stop(error);
    }
  }

  append(entry: JournalEntry): void {
    if (this.fd === null) return;
    const line = Buffer.from(JSON.stringify(entry) + '\n');
    try {
      // A write may be short when the disk fills in the middle of it: the rest, or the error, follows.
      for (let at = 0; at < line.length;) at += writeSync(this.fd, line, at);
      this.bytes += line.length;
      this.entries++;
    } catch (error) {
      this.stop(error);
    }
  }

  close(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }

  private stop(error: unknown): void {
    if (this.fd !== null) {
      try {
        ftruncateSync(this.fd, this.bytes);
      } catch {
        // what is cut short stays cut short; the reader names the line
      }
      this.close();
    }
    this.onStopped(
      `the journal ${this.path} stopped at entry ${this.entries + 1}: ${codeOf(error)}; the run goes on (output and exit code pass through) and its reports are written from memory`,
    );
  }
}

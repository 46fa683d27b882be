// The run journal on disk: one JSON object per line. A turn of the event loop's entries go out in one
// write at its end (a pytest test's end alone is nine entries), the run's first at once: a crash of
// holdwatch loses at most one turn's. Reading one back (journal-reader.ts)
// validates it with zod; writing needs none, so a run loads none.
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
  /** Lines appended in this turn of the event loop, not yet written. */
  private pending: string[] = [];
  private turnScheduled = false;

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
    this.pending.push(JSON.stringify(entry) + '\n');
    // The run's start is on disk before its command starts.
    if (this.entries === 0 && this.bytes === 0) return this.flush();
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      this.flush();
    });
  }

  /** Writes what was appended since the last write. */
  flush(): void {
    if (this.fd === null || this.pending.length === 0) return;
    const lines = Buffer.from(this.pending.join(''));
    const count = this.pending.length;
    this.pending = [];
    let at = 0;
    try {
      // A write may be short when the disk fills in the middle of it: the rest, or the error, follows.
      while (at < lines.length) at += writeSync(this.fd, lines, at);
      this.bytes += lines.length;
      this.entries += count;
    } catch (error) {
      this.keepWholeLines(lines.subarray(0, at));
      this.stop(error);
    }
  }

  /** Of a write cut short, the lines that went out whole stay on disk; the journal stops after the last. */
  private keepWholeLines(written: Buffer): void {
    // JSON.stringify escapes every newline inside a value: a newline byte is the end of an entry.
    const end = written.lastIndexOf(0x0a) + 1;
    for (let i = written.indexOf(0x0a); i >= 0 && i < end; i = written.indexOf(0x0a, i + 1)) this.entries++;
    this.bytes += end;
  }

  close(): void {
    this.flush();
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

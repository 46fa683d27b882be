// The first line of an announce file: which process runs the tests, where, and how it was started.
// A test process wrote it, so it is validated here like anything else that crosses a process boundary.
import { closeSync, openSync, readSync } from 'node:fs';
import { AnnouncementSchema, type Announcement } from '../../contract/announce.js';

export type { Announcement };

/** A header line longer than this is not one of ours. */
const MAX_HEADER_BYTES = 64 * 1024;

/** The header; 'incomplete' while its line is being written; 'gone' if removed; null when not a valid header. */
export function readAnnouncement(path: string): Announcement | 'incomplete' | 'gone' | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 'gone';
  }
  try {
    const buffer = Buffer.alloc(MAX_HEADER_BYTES);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    const newline = buffer.subarray(0, n).indexOf(0x0a);
    if (newline < 0) return n < buffer.length ? 'incomplete' : null;
    try {
      const parsed = AnnouncementSchema.safeParse(JSON.parse(buffer.subarray(0, newline).toString('utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  } finally {
    closeSync(fd);
  }
}

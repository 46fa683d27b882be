// How a row's path and test read in the table: the pieces the columns, the filter and the details share.
import type { Row } from './rows.js';

/** Path relative to the watched dir, for the table; the full path is in the details. */
export function relativePath(path: string, watchedDir: string): string {
  if (path === watchedDir) return '.';
  for (const sep of ['/', '\\']) {
    const prefix = watchedDir.endsWith(sep) ? watchedDir : watchedDir + sep;
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  return path;
}

/** The test a row belongs to: the one that opened it, by the strongest evidence; else its first sighting's, its spawn's. */
export function testOf(row: Row): string {
  const a = row.attribution;
  return a?.openedDuring ?? a?.firstSeenDuring ?? a?.spawnedDuring ?? '';
}

/**
 * A name split where it may lose its middle: the head (folders, the test's file and class) may be
 * elided, the tail (the file's name, the test's own name) is what the eye looks for and stays whole.
 */
export function splitForElision(text: string): { head: string; tail: string } {
  const cut = Math.max(...['/', '\\', '::', ' > ', ' › '].map((separator) => afterLast(text, separator)));
  return cut <= 0 || cut >= text.length ? { head: '', tail: text } : { head: text.slice(0, cut), tail: text.slice(cut) };
}

/** Where the text after the last `separator` starts, or -1. */
function afterLast(text: string, separator: string): number {
  const at = text.lastIndexOf(separator);
  return at < 0 ? -1 : at + separator.length;
}

/** A label cut to `chars` in its middle: the start says where, the end (a test's or a file's own name) says which. */
export function elideMiddle(label: string, chars: number): string {
  if (label.length <= chars) return label;
  const { head, tail } = splitForElision(label);
  if (tail.length >= chars - 1) return '…' + tail.slice(-(chars - 1));
  return head.slice(0, chars - 1 - tail.length) + '…' + tail;
}

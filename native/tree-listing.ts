// Lists what exists under a directory, with creation times, for the run's leftovers. Reads entries
// without following symlinks and without keeping anything open: each readdir closes before the next.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { coarseClockTickMs } from './linux/coarse-clock.js';

export interface TreeEntry {
  path: string;
  /** Birth time where the filesystem records it, else the change time. */
  createdAtMs: number;
  isDirectory: boolean;
}

/**
 * How much earlier than the moment a birth time may read: Linux stamps file times from the kernel's
 * coarse clock (one tick behind at most). Elsewhere taken as exact.
 */
export function birthTimeTickMs(): number {
  return process.platform === 'linux' ? coarseClockTickMs() : 0;
}

export function listTree(root: string, maxEntries = 200_000): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const stack = [root];
  while (stack.length > 0 && entries.length < maxEntries) {
    const dir = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // removed meanwhile, or unreadable
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        const stat = lstatSync(path);
        entries.push({ path, createdAtMs: stat.birthtimeMs > 0 ? stat.birthtimeMs : stat.ctimeMs, isDirectory: stat.isDirectory() });
        if (stat.isDirectory()) stack.push(path);
      } catch {
        // gone between readdir and lstat
      }
    }
  }
  return entries;
}

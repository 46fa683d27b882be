// Command-line tools: coreutils `rm: cannot remove 'x': Directory not empty`, `rmdir: failed to remove
// 'x': Device or resource busy` (GNU quotes 'x' or ‘x’; BSD/toybox print `rm: x: Directory not empty`),
// and C++ std::filesystem `filesystem error: cannot remove all: Device or resource busy [x] [y]`.
import type { TeardownFailure } from './failure.js';
import { findMessage } from './messages.js';
import { cleanBarePath, readRawQuoted } from './quoted.js';

const COREUTILS = /\b(rm|rmdir): (?:cannot remove |failed to remove )?/;
const CPP = /filesystem error: [^[]*\[([^\]]+)\]/;

export function matchTools(line: string): TeardownFailure | undefined {
  const hit = findMessage(line);
  if (!hit) return undefined;
  const cpp = CPP.exec(line);
  if (cpp) return { ...hit.known, source: 'cpp', classifiedBy: 'message', line, path: cpp[1]! };
  const m = COREUTILS.exec(line);
  if (!m || m.index > hit.index) return undefined;
  const start = m.index + m[0].length;
  const end = line.lastIndexOf(': ', hit.index);
  if (end < start) return undefined;
  const path = readRawQuoted(line, start) ?? cleanBarePath(line.slice(start, end));
  return { ...hit.known, source: 'rm', classifiedBy: 'message', line, ...(path ? { path } : {}) };
}

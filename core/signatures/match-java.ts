// Java NIO: `java.nio.file.FileSystemException: C:\x: The process cannot access the file because it is
// being used by another process`, `java.nio.file.DirectoryNotEmptyException: C:\x`,
// `java.nio.file.AccessDeniedException: C:\x`, and java.io's `FileNotFoundException: C:\x (<text>)`.
// Java prints no error number, so translated texts are classified by their words (messages.ts).
import type { TeardownFailure } from './failure.js';
import { findMessage } from './messages.js';
import { ENOTEMPTY, ERROR_ACCESS_DENIED, ERROR_DIR_NOT_EMPTY } from './os-errors.js';
import { cleanBarePath, looksLikeWindowsPath } from './quoted.js';

const JAVA = /java\.(?:nio\.file|io)\.(FileSystemException|DirectoryNotEmptyException|AccessDeniedException|FileNotFoundException): (.*)$/;

export function matchJava(line: string): TeardownFailure | undefined {
  const m = JAVA.exec(line.trimEnd());
  if (!m) return undefined;
  const [, exception, rest] = m as unknown as [string, string, string];
  if (exception === 'DirectoryNotEmptyException') {
    const path = cleanBarePath(rest);
    const known = path && looksLikeWindowsPath(path) ? ERROR_DIR_NOT_EMPTY : ENOTEMPTY;
    return { ...known, source: 'java', classifiedBy: 'message', line, ...(path ? { path } : {}) };
  }
  if (exception === 'AccessDeniedException') {
    // On Unix this is EACCES, a permission problem; on Windows also what a delete-pending file gives.
    const path = cleanBarePath(rest);
    if (!path || !looksLikeWindowsPath(path)) return undefined;
    return { ...ERROR_ACCESS_DENIED, source: 'java', classifiedBy: 'message', line, path };
  }
  const hit = findMessage(rest);
  if (!hit) return undefined;
  // FileSystemException prints `<file>: <reason>`; FileNotFoundException `<file> (<reason>)`.
  const cut = exception === 'FileNotFoundException' ? rest.lastIndexOf(' (', hit.index) : rest.lastIndexOf(': ', hit.index);
  const path = cut > 0 ? cleanBarePath(rest.slice(0, cut)) : undefined;
  return { ...hit.known, source: 'java', classifiedBy: 'message', line, ...(path ? { path } : {}) };
}

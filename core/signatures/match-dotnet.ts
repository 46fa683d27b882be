// .NET: `System.IO.IOException: The process cannot access the file 'C:\x' because it is being used by
// another process.`, `The directory is not empty. : 'C:\x'` (Core on Windows), `Directory not empty : '/x'`
// (Core on Unix), `System.UnauthorizedAccessException: Access to the path 'C:\x' is denied.`
// Translated messages still carry the HRESULT when printed as `System.IO.IOException (0x80070020): ...`.
import type { TeardownFailure } from './failure.js';
import { findMessage } from './messages.js';
import { ERROR_ACCESS_DENIED, win32ByHresult } from './os-errors.js';
import { looksLikeWindowsPath } from './quoted.js';

const DOTNET_EXCEPTION = /System\.(?:IO\.IOException|UnauthorizedAccessException)|\(0x8007[0-9A-Fa-f]{4}\)/;
const HRESULT = /\(0x(8007[0-9A-Fa-f]{4})\)/;
const FILE_BECAUSE = /the file '(.+?)' because/;
const ACCESS_TO_PATH = /Access to the path '(.+?)' is denied/;
const TRAILING_PATH = / : '(.+)'/;

export function matchDotnet(line: string): TeardownFailure | undefined {
  const fileBecause = FILE_BECAUSE.exec(line);
  if (!fileBecause && !DOTNET_EXCEPTION.test(line)) return undefined;
  const hresult = HRESULT.exec(line);
  const byCode = hresult ? win32ByHresult(hresult[1]!) : undefined;
  const accessTo = ACCESS_TO_PATH.exec(line);
  const path = fileBecause?.[1] ?? accessTo?.[1] ?? TRAILING_PATH.exec(line)?.[1] ?? firstQuoted(line);
  let known = byCode ?? findMessage(line)?.known;
  // "Access to the path is denied" is a plain permission error on Unix; on Windows it is often delete-pending.
  if (!known && accessTo && looksLikeWindowsPath(accessTo[1]!)) known = ERROR_ACCESS_DENIED;
  if (!known) return undefined;
  return { ...known, source: 'dotnet', classifiedBy: byCode ? 'code' : 'message', line, ...(path ? { path } : {}) };
}

/** Translated .NET texts still quote the path; its place in the sentence varies by language. */
function firstQuoted(line: string): string | undefined {
  return /['"„«]([A-Za-z]:\\[^'"“»]+|\/[^'"“»]+)['"“»]/.exec(line)?.[1];
}

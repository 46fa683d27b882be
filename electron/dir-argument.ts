// The directory on the desktop app's command line: `holdwatch.exe "%V"` from the Explorer context menu,
// `holdwatch <dir>` from a terminal, or a second instance's argv (app.on('second-instance')). Pure: the
// caller passes the argv, whether the app is packaged and the starting process's working directory.
import { posix, win32 } from 'node:path';
import type { DirToOpen } from '../contract/service.js';
import { checkDirToOpen } from '../host/dir-to-open.js';
import { scanWorkerArguments } from './worker-args.js';

export interface DirArgumentContext {
  /** app.isPackaged: unpackaged, Electron runs `electron <app dir> <args>` and the app dir is no argument of ours. */
  packaged: boolean;
  /** Where the starting process was started: a relative dir resolves against it. */
  workingDirectory: string;
  platform: NodeJS.Platform;
}

/** Node options Electron accepts whose value is the next argument (Playwright's launcher uses `-r <loader>`). */
const SWITCHES_WITH_A_VALUE = new Set(['-r', '--require']);

/** The directory an argv names, checked (the session's dirToOpen); null when it names none. Never throws. */
export function dirToOpenFrom(argv: readonly string[], context: DirArgumentContext): DirToOpen | null {
  const dir = dirArgumentOf(argv, context);
  return dir === null ? null : checkDirToOpen(dir);
}

/** The absolute directory argv names, or null when it names none (the start screen opens). Not checked for existence. */
export function dirArgumentOf(argv: readonly string[], context: DirArgumentContext): string | null {
  // The elevated scanner is this same executable: its arguments are never a directory to open.
  if (scanWorkerArguments(argv) !== null) return null;
  const positional: string[] = [];
  let afterDoubleDash = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (afterDoubleDash) positional.push(arg);
    else if (arg === '--') afterDoubleDash = true;
    else if (SWITCHES_WITH_A_VALUE.has(arg)) i++;
    // Chromium and Electron switches (`--inspect=0`, `--original-process-start-time=...`, which Chromium
    // adds to a second instance's argv): never a directory.
    else if (arg.startsWith('-')) continue;
    else positional.push(arg);
  }
  const [first] = context.packaged ? positional : positional.slice(1);
  if (first === undefined || first.trim() === '') return null;
  const path = context.platform === 'win32' ? win32 : posix;
  return path.resolve(context.workingDirectory, context.platform === 'win32' ? unquoteWindowsDir(first) : first);
}

/**
 * Explorer expands `"%V"` of a drive's root to `"C:\"`, and CommandLineToArgvW reads `\"` as an escaped
 * quote: the argument arrives as `C:"`. A trailing quote is never part of a Windows path: it was that backslash.
 */
function unquoteWindowsDir(arg: string): string {
  return arg.endsWith('"') ? `${arg.slice(0, -1)}\\` : arg;
}

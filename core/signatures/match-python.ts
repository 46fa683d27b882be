// Python: `PermissionError: [WinError 32] <text>: 'C:\\path'`, `OSError: [Errno 39] Directory not empty: 'x'`,
// Python 2's `WindowsError: [Error 32] ...`. The number decides; the text may be translated.
import type { TeardownFailure } from './failure.js';
import { errnoByCode, win32ByCode } from './os-errors.js';
import { readPythonRepr } from './quoted.js';

const PYTHON = /\[(WinError|Errno|Error) (\d+)\]/;

export function matchPython(line: string): TeardownFailure | undefined {
  const m = PYTHON.exec(line);
  if (!m) return undefined;
  const code = Number(m[2]);
  const known = m[1] === 'Errno' ? errnoByCode(code) : win32ByCode(code);
  if (!known) return undefined;
  // The path follows the message as `: '<repr>'` (for rename: `'src' -> 'dst'`; we keep src).
  const rest = m.index + m[0].length;
  const colon = /: (['"])/.exec(line.slice(rest));
  const path = colon ? readPythonRepr(line, rest + colon.index + 2) : undefined;
  return { ...known, source: 'python', classifiedBy: 'code', line, ...(path ? { path } : {}) };
}

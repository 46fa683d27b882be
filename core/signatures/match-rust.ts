// Rust's io::Error: Display `<text> (os error 32)`, Debug `Os { code: 32, kind: ..., message: "<text>" }`.
// The number is a Win32 code on Windows and an errno elsewhere, and they collide (32 is EPIPE on
// Linux), so the text picks the system: Unix strerror texts are fixed English, Windows' may be translated.
import type { TeardownFailure } from './failure.js';
import { errnoByCode, win32ByCode } from './os-errors.js';
import { readPythonRepr } from './quoted.js';

const DISPLAY = /\(os error (\d+)\)/;
const DEBUG = /Os \{ code: (\d+), kind: \w+, message: "([^"]*)" \}/;
/** What the colliding numbers mean on Linux/macOS: seeing these texts means it is not the Win32 code. */
const UNIX_TEXT_FOR = new Map<number, RegExp>([
  [5, /Input\/output error/],
  [32, /Broken pipe/],
  [33, /Numerical argument out of domain/],
]);

export function matchRust(line: string): TeardownFailure | undefined {
  const display = DISPLAY.exec(line);
  const debug = display ? undefined : DEBUG.exec(line);
  const m = display ?? debug;
  if (!m) return undefined;
  const code = Number(m[1]);
  const text = debug ? debug[2]! : line.slice(0, m.index);
  let known = /busy|not empty/i.test(text) ? errnoByCode(code) : undefined;
  if (!known && !UNIX_TEXT_FOR.get(code)?.test(text)) known = win32ByCode(code);
  if (!known) return undefined;
  const path = lastQuotedBefore(line, m.index);
  return { ...known, source: 'rust', classifiedBy: 'code', line, ...(path ? { path } : {}) };
}

/** Rust messages name the path (when at all) before the error, e.g. cargo's ``failed to remove `C:\x`: ...``. */
function lastQuotedBefore(line: string, end: number): string | undefined {
  const quoted = /`[^`]+`|"(?:[^"\\]|\\.)+"/g;
  let last: string | undefined;
  for (let q = quoted.exec(line); q && q.index < end; q = quoted.exec(line)) {
    if (q.index + q[0].length <= end) last = q[0][0] === '"' ? readPythonRepr(line, q.index) : q[0].slice(1, -1);
  }
  return last && /[\\/]/.test(last) ? last : undefined;
}

// Reading teardown-failure signatures out of the command's output lines. Node's TAP reporter prints
// an error as a YAML double-quoted scalar (`  error: "EBUSY: ..., unlink 'C:\\dir\\f.lock'"`), which
// doubles every backslash of a Windows path: the line is decoded first, so the path is the OS's.
import { matchTeardownFailure } from './match-line.js';

/** A teardown failure read from a line: its kind, the OS's error code, the path it names. */
export interface FailureMatch {
  kind: string;
  code: number | null;
  path: string | null;
}

/** `key: "..."` as a whole line, the scalar in JSON-compatible escapes (YAML's \x, \N... are left as written). */
const YAML_QUOTED_VALUE = /^(\s*[\w-]+:\s*)("(?:[^"\\]|\\.)*")\s*$/;

export function decodeYamlQuotedLine(line: string): string {
  const m = YAML_QUOTED_VALUE.exec(line);
  if (!m) return line;
  try {
    return m[1] + (JSON.parse(m[2]!) as string);
  } catch {
    return line;
  }
}

export function detectFailure(line: string): FailureMatch | null {
  const hit = matchTeardownFailure(decodeYamlQuotedLine(line));
  return hit ? { kind: hit.kind, code: hit.error?.code ?? null, path: hit.path ?? null } : null;
}

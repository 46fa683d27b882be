// The entry point the supervisor calls on every output line. Almost no line is a failure, so a
// single literal-alternation regex (no captures, no backtracking) rejects them before any parser runs.
import type { TeardownFailure } from './failure.js';
import { MESSAGE_TEXTS, findMessage } from './messages.js';
import { matchDotnet } from './match-dotnet.js';
import { GO_TEMPDIR_CLEANUP, matchGo, matchGoTempDirCleanup } from './match-go.js';
import { matchJava } from './match-java.js';
import { matchNode } from './match-node.js';
import { matchPython } from './match-python.js';
import { matchRust } from './match-rust.js';
import { matchTools } from './match-tools.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every parser below needs one of these in the line. Case-insensitive texts drop their first letter
// ("irectory not empty") so both the Unix ("Directory") and Go ("directory") spellings pass.
const ANCHORS = [
  'WinError ',
  'Errno ',
  '[Error ',
  'os error ',
  'Os { code: ',
  'EBUSY',
  'ENOTEMPTY',
  'EPERM',
  'NotEmptyException',
  'AccessDeniedException',
  'Access to the path',
  '(0x8007',
  GO_TEMPDIR_CLEANUP,
  ...MESSAGE_TEXTS.map((m) => (m.anyCase ? m.text.slice(1) : m.text)),
];
const PREFILTER = new RegExp(ANCHORS.map(escape).join('|'));
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Cheap test: false means the line certainly holds no teardown failure. */
export function mayBeTeardownFailure(line: string): boolean {
  return PREFILTER.test(line);
}

/** Recognises a teardown-failure line (one line, no trailing newline needed); undefined for any other line. */
export function matchTeardownFailure(rawLine: string): TeardownFailure | undefined {
  if (!PREFILTER.test(rawLine)) return undefined;
  const line = rawLine.replace(ANSI, '').replace(/\r$/, '');
  const byCode = matchPython(line) ?? matchNode(line) ?? matchRust(line);
  if (byCode) return byCode;
  const structured = matchDotnet(line) ?? matchJava(line) ?? matchTools(line);
  if (structured) return structured;
  const hit = findMessage(line);
  if (!hit) return matchGoTempDirCleanup(line);
  const go = matchGo(line, hit);
  if (go) return go;
  // Unshaped text: only Windows' sharing/lock texts are specific enough to trust on their own;
  // "directory not empty" or "Access is denied" alone could be anything.
  const kind = hit.known.kind;
  if (kind !== 'sharing-violation' && kind !== 'lock-violation') return undefined;
  return { ...hit.known, source: 'unknown', classifiedBy: 'message', line };
}

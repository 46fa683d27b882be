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

const utf8 = new TextEncoder();
const longestAsciiRun = (text: string) => text.split(/[^\x00-\x7f]+/).reduce((a, b) => (b.length > a.length ? b : a), '');

// For a line not decoded yet, one char a byte (latin1): an anchor with a byte above 0x7F is searched
// as its longest ASCII run where it has a long one (a shorter anchor rejects no line the whole one
// passes), else on its own as its UTF-8 bytes, since in the regex such bytes fail its quick check far
// less often in binary output. A YAML-quoted line is matched once its escapes are decoded
// (failure-line.ts), and `\u` may hide an anchor's letters.
const BYTE_ANCHORS = ANCHORS.map((anchor) => (longestAsciiRun(anchor).length >= 6 ? longestAsciiRun(anchor) : anchor));
const BINARY_PREFILTER = new RegExp([...BYTE_ANCHORS.filter((a) => longestAsciiRun(a) === a), '\\u'].map(escape).join('|'));
const BINARY_WIDE_ANCHORS = BYTE_ANCHORS.filter((a) => longestAsciiRun(a) !== a).map((a) => String.fromCharCode(...utf8.encode(a)));

/** mayBeTeardownFailure for a line given one char a byte (latin1): output that is mostly not text is tested without decoding it. */
export function mayBeTeardownFailureBytes(binaryLine: string): boolean {
  return BINARY_PREFILTER.test(binaryLine) || BINARY_WIDE_ANCHORS.some((anchor) => binaryLine.includes(anchor));
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

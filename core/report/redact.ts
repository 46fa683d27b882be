// `--redact`: the report goes into a public issue, so the home directory, the user name and the secrets
// a command line shows (secrets.ts) leave every string of the record (paths, command lines, failure
// texts, ancestry) before any rendering.
import type { RunRecord } from '../../contract/runs.js';
import { redactSecretArgs, redactSecrets } from './secrets.js';

export interface RedactOptions {
  /** The home directory as the run saw it: `/home/alice`, `/Users/alice` or `C:\Users\alice`. */
  home: string;
  /** The login name: `alice`. */
  user: string;
}

export const REDACTED_HOME = '~';
export const REDACTED_USER = '<user>';

/** A copy of `record` with the home directory, the user name and secrets replaced in every string value. */
export function redactRecord(record: RunRecord, options: RedactOptions): RunRecord {
  const redact = makeRedactor(options);
  return mapStrings(record, redact) as RunRecord;
}

/** The string rewrite on its own, for callers that redact something other than a record. */
export function makeRedactor({ home, user }: RedactOptions): (text: string) => string {
  const homePattern = homeRegExp(home, user);
  const userPattern = userRegExp(user);
  return (text) => {
    let out = redactSecrets(text);
    if (homePattern) out = out.replace(homePattern, REDACTED_HOME);
    if (userPattern) out = out.replace(userPattern, REDACTED_USER);
    return out;
  };
}

// Word characters in any script: the name must not be cut out of `malice` or `alice2`.
const WORD = String.raw`[\p{L}\p{N}_]`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every spelling of the home directory a record may carry, longest first. */
function homeRegExp(home: string, user: string): RegExp | null {
  const trimmed = home.replace(/[\\/]+$/, '');
  if (trimmed === '') return null;
  const segments = trimmed.split(/[\\/]+/).filter((s) => s !== '');
  const forms = new Set<string>();
  // The path as given, with either separator, and with JSON/C-escaped backslashes.
  for (const sep of ['/', '\\', '\\\\']) forms.add(segmentsToPattern(trimmed, segments, sep));
  const drive = /^([A-Za-z]):$/.exec(segments[0] ?? '');
  if (drive) {
    // MSYS/Cygwin spellings of a Windows home: /c/Users/alice, /cygdrive/c/Users/alice.
    const rest = segments.slice(1).map(escapeRegExp).join('/');
    forms.add(`/(?:cygdrive/)?${drive[1]}/${rest}`);
  } else if (user !== '') {
    // The same user's home on the other POSIX layouts (a record may mix a Mac and a Linux path).
    forms.add(`/(?:home|Users)/${escapeRegExp(user)}`);
  }
  if (user !== '' && drive) {
    // 8.3 short name (C:\Users\RUNNER~1): what CI tools print for long or spaced user names.
    const short = user.replace(/[\s.]/g, '').slice(0, 6);
    const prefix = segments.slice(0, -1).map(escapeRegExp);
    for (const sep of ['/', '\\\\', '\\\\\\\\']) forms.add([...prefix, `${escapeRegExp(short)}~\\d`].join(sep));
  }
  const alternatives = [...forms].sort((a, b) => b.length - a.length).join('|');
  // Windows paths compare case-insensitively; a POSIX home is matched exactly as well.
  return new RegExp(`(?:${alternatives})(?!${WORD})`, drive ? 'giu' : 'gu');
}

function segmentsToPattern(original: string, segments: string[], sep: string): string {
  const lead = original.startsWith('\\\\') ? sep + sep : /^[\\/]/.test(original) ? sep : '';
  return escapeRegExp(lead) + segments.map(escapeRegExp).join(escapeRegExp(sep));
}

/** The name as a whole word, any case (Windows names fold case; over-redacting is the safe error). */
function userRegExp(user: string): RegExp | null {
  if (user.trim() === '') return null;
  return new RegExp(`(?<!${WORD})${escapeRegExp(user)}(?!${WORD})`, 'giu');
}

function mapStrings(value: unknown, fn: (text: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  // An array of words is an argv (the command, a probe's argv): `--token x` spans two of them.
  if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return redactSecretArgs(value).map(fn);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn));
  if (value !== null && typeof value === 'object') {
    // A path's raw bytes (pathBytesBase64) hold the home as bytes no text rewrite reaches: left out.
    const kept = Object.entries(value).filter(([key]) => key !== 'pathBytesBase64');
    return Object.fromEntries(kept.map(([key, item]) => [key, mapStrings(item, fn)]));
  }
  return value;
}

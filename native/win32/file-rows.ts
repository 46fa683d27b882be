// The steady-state view of the system handle table: File rows as plain 32-bit words (no BigInt, no
// object per row) grouped in per-process runs, so a poll can tell in one pass which processes'
// File handles are exactly as they were last time and skip them.
// x64 SYSTEM_HANDLE_TABLE_ENTRY_INFO_EX (see handle-table.ts): Object @0, UniqueProcessId @8,
// HandleValue @16, GrantedAccess @24, ObjectTypeIndex @30 (u16), 40 bytes per row after a 16-byte header.
import type { HandleEntry } from './handle-table.js';

const HEADER_BYTES = 16;
const ENTRY_BYTES = 40;
/** Words per row: pid, handle (low, high), access, object (low, high). */
export const WORDS_PER_ROW = 6;

/** A process's rows, [start, end) in row units. Windows and Wine list one process's handles together. */
export interface Run {
  pid: number;
  start: number;
  end: number;
}

export interface FileRows {
  words: Uint32Array;
  count: number;
  runs: Run[];
}

/**
 * File-type rows of a system handle table buffer. `validBytes` clamps to what the call wrote (the
 * table may have grown between sizing and filling). A pid met again after another pid's rows starts
 * a second run: callers treat such a pid as changed rather than merge silently.
 */
export function collectFileRows(buf: Buffer, fileType: number, validBytes = buf.length, reuse?: FileRows): FileRows {
  const limit = Math.min(validBytes, buf.length);
  const declared = limit >= HEADER_BYTES ? Number(buf.readBigUInt64LE(0)) : 0;
  const total = Math.min(declared, Math.max(0, Math.floor((limit - HEADER_BYTES) / ENTRY_BYTES)));
  // A 32-bit view, not Buffer.readUInt*: this loop runs over every row of the table on every poll,
  // and the view is several times faster. Every field read here is 4-byte aligned within a row.
  const table = wordView(buf, HEADER_BYTES + total * ENTRY_BYTES);
  let words = reuse?.words ?? new Uint32Array(1024 * WORDS_PER_ROW);
  const runs: Run[] = [];
  let count = 0;
  let run: Run | undefined;
  for (let i = 0, at = HEADER_BYTES / 4; i < total; i++, at += ENTRY_BYTES / 4) {
    // ObjectTypeIndex is the high half of the word at +28 (CreatorBackTraceIndex is the low half).
    if (table[at + 7]! >>> 16 !== fileType) continue;
    if ((count + 1) * WORDS_PER_ROW > words.length) {
      const grown = new Uint32Array(words.length * 2);
      grown.set(words);
      words = grown;
    }
    const pid = table[at + 2]!;
    const w = count * WORDS_PER_ROW;
    words[w] = pid;
    words[w + 1] = table[at + 4]!;
    words[w + 2] = table[at + 5]!;
    words[w + 3] = table[at + 6]!;
    words[w + 4] = table[at]!;
    words[w + 5] = table[at + 1]!;
    if (run === undefined || run.pid !== pid) {
      run = { pid, start: count, end: count + 1 };
      runs.push(run);
    } else {
      run.end = count + 1;
    }
    count++;
  }
  return { words, count, runs };
}

/** Little-endian 32-bit words over `bytes` bytes of `buf` (copied when not 4-byte aligned). */
function wordView(buf: Buffer, bytes: number): Uint32Array {
  const length = Math.floor(bytes / 4);
  if (buf.byteOffset % 4 === 0) return new Uint32Array(buf.buffer, buf.byteOffset, length);
  const copy = new Uint32Array(length);
  new Uint8Array(copy.buffer).set(buf.subarray(0, length * 4));
  return copy;
}

/** True when run `a` of `rowsA` holds exactly the rows of run `b` of `rowsB`, in the same order. */
export function sameRun(rowsA: FileRows, a: Run, rowsB: FileRows, b: Run): boolean {
  if (a.pid !== b.pid || a.end - a.start !== b.end - b.start) return false;
  const wa = rowsA.words;
  const wb = rowsB.words;
  const offsetA = a.start * WORDS_PER_ROW;
  const offsetB = b.start * WORDS_PER_ROW;
  const length = (a.end - a.start) * WORDS_PER_ROW;
  for (let k = 0; k < length; k++) if (wa[offsetA + k] !== wb[offsetB + k]) return false;
  return true;
}

/** A row as the slow path wants it (changed processes only). */
export function rowEntry(rows: FileRows, index: number, fileType: number): HandleEntry {
  const w = index * WORDS_PER_ROW;
  const words = rows.words;
  return {
    pid: words[w]!,
    handle: (BigInt(words[w + 2]!) << 32n) | BigInt(words[w + 1]!),
    grantedAccess: words[w + 3]!,
    object: (BigInt(words[w + 5]!) << 32n) | BigInt(words[w + 4]!),
    typeIndex: fileType,
  };
}

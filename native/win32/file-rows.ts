// The steady-state view of the system handle table: each process's rows (of every type) as one block of
// the buffer the table was read into. A process whose block is byte for byte the last poll's (one memcmp)
// is unchanged; one whose other handles changed (threads, events, keys) is compared on its File rows only.
// Nothing is copied or built per row unless its process changed. Given the table read before, a block
// that is where that table's rows of its pid end (same length, a different pid after it) and byte for
// byte theirs is taken whole by one memcmp, without a pass over its rows: a table of 100,000 rows costs
// a few calls per process beyond the read itself, not a JS step per row.
// x64 SYSTEM_HANDLE_TABLE_ENTRY_INFO_EX (see handle-table.ts): Object @0, UniqueProcessId @8,
// HandleValue @16, GrantedAccess @24, ObjectTypeIndex @30 (u16), 40 bytes per row after a 16-byte header.
import type { HandleEntry } from './handle-table.js';

const HEADER_BYTES = 16;
const ENTRY_BYTES = 40;
const ENTRY_WORDS = ENTRY_BYTES / 4;

/** One process's rows, [start, end) in row units. Windows and Wine list a process's handles together. */
export interface ProcessBlock {
  pid: number;
  start: number;
  end: number;
  /** How many of them are File handles. */
  fileRows: number;
  /** Byte for byte the block of the same pid in the snapshot this one was compared with. */
  sameAsCompared?: true;
}

export interface TableSnapshot {
  /** The table as read (valid as long as its reader keeps the buffer: SystemTables keeps two). */
  bytes: Buffer;
  /** The same bytes as little-endian 32-bit words. */
  words: Uint32Array;
  fileType: number;
  /** In table order; a pid met again after another pid's rows has a second block (callers treat it as changed). */
  blocks: ProcessBlock[];
  /** Which read of the table this is (see `comparedWith`); 0 when not counted. */
  read: number;
  /** The `read` of the snapshot whose blocks `sameAsCompared` refers to; undefined: none. */
  comparedWith?: number;
}

/**
 * The blocks of a system handle table buffer. `validBytes` clamps to what the call wrote (the table
 * may have grown between sizing and filling). With `compared` (the table read before, its buffer intact),
 * a block byte for byte the same as that table's block of its pid is marked `sameAsCompared`.
 */
export function snapshotTable(buf: Buffer, fileType: number, validBytes = buf.length, compared?: TableSnapshot, read = 0): TableSnapshot {
  const limit = Math.min(validBytes, buf.length);
  const declared = limit >= HEADER_BYTES ? Number(buf.readBigUInt64LE(0)) : 0;
  const total = Math.min(declared, Math.max(0, Math.floor((limit - HEADER_BYTES) / ENTRY_BYTES)));
  const bytes = buf.subarray(0, HEADER_BYTES + total * ENTRY_BYTES);
  // A 32-bit view, not Buffer.readUInt*: this runs over the table on every poll.
  const words = wordView(bytes);
  const usable = compared !== undefined && compared.fileType === fileType;
  const before = usable ? new ComparedBlocks(compared.blocks) : undefined;
  const blocks: ProcessBlock[] = [];
  // UniqueProcessId's low half: pids fit in 32 bits (Windows pids are multiples of 4 below 2^32).
  const pidAt = (row: number) => words[HEADER_BYTES / 4 + row * ENTRY_WORDS + 2]!;
  for (let i = 0; i < total;) {
    const pid = pidAt(i);
    const last = before?.of(pid);
    const end = last === undefined ? -1 : i + last.end - last.start;
    if (
      last !== undefined &&
      end <= total &&
      pidAt(end - 1) === pid &&
      (end === total || pidAt(end) !== pid) &&
      sameBytes(bytes, i, end, compared!.bytes, last)
    ) {
      blocks.push({ pid, start: i, end, fileRows: last.fileRows, sameAsCompared: true });
      i = end;
      continue;
    }
    const block: ProcessBlock = { pid, start: i, end: i, fileRows: 0 };
    // ObjectTypeIndex is the high half of the word at +28 (CreatorBackTraceIndex is the low half).
    for (let at = HEADER_BYTES / 4 + i * ENTRY_WORDS; i < total && words[at + 2] === pid; i++, at += ENTRY_WORDS)
      if (words[at + 7]! >>> 16 === fileType) block.fileRows++;
    block.end = i;
    blocks.push(block);
  }
  return { bytes, words, fileType, blocks, read, ...(usable ? { comparedWith: compared.read } : {}) };
}

/**
 * The block of a pid in the table read before. Processes keep their order between reads, so the block
 * after the last one asked for is tried first; the map by pid (each pid's first block) is built only
 * when that misses, as a poll of an unchanged table then builds nothing.
 */
class ComparedBlocks {
  private next = 0;
  /** Each pid's first block, by its index in `blocks`. */
  private byPid: Map<number, number> | undefined;

  constructor(private readonly blocks: readonly ProcessBlock[]) {}

  of(pid: number): ProcessBlock | undefined {
    const candidate = this.blocks[this.next];
    if (candidate?.pid === pid) {
      this.next++;
      return candidate;
    }
    if (!this.byPid) {
      this.byPid = new Map();
      this.blocks.forEach((block, index) => {
        if (!this.byPid!.has(block.pid)) this.byPid!.set(block.pid, index);
      });
    }
    const index = this.byPid.get(pid);
    if (index === undefined) return undefined;
    this.next = index + 1;
    return this.blocks[index];
  }
}

function sameBytes(bytes: Buffer, start: number, end: number, other: Buffer, block: ProcessBlock): boolean {
  return bytes.compare(other, offset(block.start), offset(block.end), offset(start), offset(end)) === 0;
}

/**
 * True when block `a` of `sa` holds the same File rows as block `b` of `sb`, in the same order: the
 * same handle values, access and object. Other handles of the process may differ. The rows both blocks
 * begin and end with byte for byte are skipped by memcmp (a process with 100,000 handles that opened one
 * event differs in a row or two); only the rows between are walked.
 */
export function sameFileRows(sa: TableSnapshot, a: ProcessBlock, sb: TableSnapshot, b: ProcessBlock): boolean {
  if (a.pid !== b.pid || a.fileRows !== b.fileRows || sa.fileType !== sb.fileType) return false;
  const lengthA = a.end - a.start;
  const lengthB = b.end - b.start;
  if (lengthA === lengthB && sa.bytes.compare(sb.bytes, offset(b.start), offset(b.end), offset(a.start), offset(a.end)) === 0) return true;
  const head = sharedHeadRows(sa.bytes, a.start, sb.bytes, b.start, Math.min(lengthA, lengthB));
  const tail = sharedTailRows(sa.bytes, a.end, sb.bytes, b.end, Math.min(lengthA, lengthB) - head);
  const wa = sa.words;
  const wb = sb.words;
  const type = sa.fileType;
  const endA = a.end - tail;
  const endB = b.end - tail;
  let i = a.start + head;
  let j = b.start + head;
  for (;;) {
    while (i < endA && wa[offset(i) / 4 + 7]! >>> 16 !== type) i++;
    while (j < endB && wb[offset(j) / 4 + 7]! >>> 16 !== type) j++;
    if (i === endA || j === endB) return i === endA && j === endB;
    const x = offset(i) / 4;
    const y = offset(j) / 4;
    // Object (2 words), then HandleValue (2) and GrantedAccess at +16..+27.
    if (wa[x] !== wb[y] || wa[x + 1] !== wb[y + 1] || wa[x + 4] !== wb[y + 4] || wa[x + 5] !== wb[y + 5] || wa[x + 6] !== wb[y + 6]) return false;
    i++;
    j++;
  }
}

/**
 * How many rows from `startA` in `a` and `startB` in `b` (at most `limit`) are byte for byte the same.
 * memcmp over runs that double while they match and halve once one does not: a few dozen calls find
 * the first differing row of 100,000.
 */
export function sharedHeadRows(a: Buffer, startA: number, b: Buffer, startB: number, limit: number): number {
  return sharedRows(limit, (rows, n) => a.compare(b, offset(startB + rows), offset(startB + rows + n), offset(startA + rows), offset(startA + rows + n)) === 0);
}

/** How many rows before `endA` in `a` and `endB` in `b` (at most `limit`) are byte for byte the same. */
export function sharedTailRows(a: Buffer, endA: number, b: Buffer, endB: number, limit: number): number {
  return sharedRows(limit, (rows, n) => a.compare(b, offset(endB - rows - n), offset(endB - rows), offset(endA - rows - n), offset(endA - rows)) === 0);
}

/** The first run compared; small, as most changes sit near one end of a block (new handles come last). */
const FIRST_RUN_ROWS = 64;

function sharedRows(limit: number, same: (rows: number, n: number) => boolean): number {
  let rows = 0;
  let run = FIRST_RUN_ROWS;
  let narrowing = false;
  while (rows < limit) {
    const n = Math.min(run, limit - rows);
    if (same(rows, n)) {
      rows += n;
      if (!narrowing) run *= 2;
    } else if (n === 1) break;
    else {
      narrowing = true; // the first differing row lies in these n
      run = Math.ceil(n / 2);
    }
  }
  return rows;
}

/**
 * Whether every block but those of `skip` was taken whole from the table read before (`sameAsCompared`),
 * and they are `count`: a process gone from the table, or a pid met twice, shows as another count.
 */
export function allTakenWhole(blocks: readonly ProcessBlock[], skip: ReadonlySet<number>, count: number): boolean {
  let others = 0;
  for (const block of blocks) {
    if (skip.has(block.pid)) continue;
    if (block.sameAsCompared !== true) return false;
    others++;
  }
  return others === count;
}

/** Each pid's last block with File rows in `snapshot` (none without one). */
export function fileBlocksByPid(snapshot: TableSnapshot | undefined): Map<number, ProcessBlock> {
  const byPid = new Map<number, ProcessBlock>();
  for (const block of snapshot?.blocks ?? []) if (block.fileRows > 0) byPid.set(block.pid, block);
  return byPid;
}

/** The pids met in more than one block: listed mid-change, so callers treat them as changed. */
export function splitPids(blocks: readonly ProcessBlock[]): Set<number> {
  const seen = new Set<number>();
  const split = new Set<number>();
  for (const { pid } of blocks) {
    if (seen.has(pid)) split.add(pid);
    seen.add(pid);
  }
  return split;
}

/** The rows of `block` that are File handles, in table order. */
export function fileRowIndices(snapshot: TableSnapshot, block: ProcessBlock): number[] {
  const rows: number[] = [];
  for (let i = block.start; i < block.end; i++) if (snapshot.words[offset(i) / 4 + 7]! >>> 16 === snapshot.fileType) rows.push(i);
  return rows;
}

/** How many handles of any type `pid` has in the table (its rows, in however many blocks). */
export function handleCountIn(snapshot: TableSnapshot, pid: number): number {
  let count = 0;
  for (const block of snapshot.blocks) if (block.pid === pid) count += block.end - block.start;
  return count;
}

/** Row `row` as the slow path wants it (changed processes only). */
export function entryAt(snapshot: TableSnapshot, row: number): HandleEntry {
  const w = offset(row) / 4;
  const words = snapshot.words;
  return {
    pid: words[w + 2]!,
    handle: (BigInt(words[w + 5]!) << 32n) | BigInt(words[w + 4]!),
    grantedAccess: words[w + 6]!,
    object: (BigInt(words[w + 1]!) << 32n) | BigInt(words[w]!),
    typeIndex: words[w + 7]! >>> 16,
  };
}

function offset(row: number): number {
  return HEADER_BYTES + row * ENTRY_BYTES;
}

/** Little-endian 32-bit words over `bytes` (copied when it does not start on a 4-byte boundary). */
function wordView(bytes: Buffer): Uint32Array {
  const length = Math.floor(bytes.length / 4);
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, length);
  const copy = new Uint32Array(length);
  new Uint8Array(copy.buffer).set(bytes.subarray(0, length * 4));
  return copy;
}

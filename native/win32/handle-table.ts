// Pure parsers for the buffers ntdll fills, over a Buffer and the address it was filled at (string
// fields hold absolute pointers into the same buffer). x64 layouts only: node.exe is 64-bit.

/** One row of the system (or one process's) handle table. */
export interface HandleEntry {
  pid: number;
  /** Kernel object address (0 on Wine and in per-process tables): tells a reused handle value apart. */
  object: bigint;
  /** The handle value inside `pid`'s table (not usable in ours). */
  handle: bigint;
  grantedAccess: number;
  typeIndex: number;
}

const TABLE_HEADER_BYTES = 16;
const SYSTEM_ENTRY_BYTES = 40;
const PROCESS_ENTRY_BYTES = 40;

/**
 * SYSTEM_HANDLE_INFORMATION_EX (class 64): `{ULONG_PTR NumberOfHandles; ULONG_PTR Reserved}` then
 * 40-byte entries `{PVOID Object; ULONG_PTR UniqueProcessId; ULONG_PTR HandleValue; ULONG
 * GrantedAccess; USHORT CreatorBackTraceIndex; USHORT ObjectTypeIndex; ULONG HandleAttributes; ULONG Reserved}`.
 * `validBytes` is what the call reported as written: the table can grow between the sizing call and
 * the real one, so the count is clamped to the entries that really fit, never trusted past the data.
 */
export function parseSystemHandleTable(buf: Buffer, validBytes = buf.length, keepTypeIndex?: number): HandleEntry[] {
  const limit = Math.min(validBytes, buf.length);
  if (limit < TABLE_HEADER_BYTES) return [];
  const declared = Number(buf.readBigUInt64LE(0));
  const fits = Math.floor((limit - TABLE_HEADER_BYTES) / SYSTEM_ENTRY_BYTES);
  const count = Math.min(declared, fits);
  const entries: HandleEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = TABLE_HEADER_BYTES + i * SYSTEM_ENTRY_BYTES;
    const typeIndex = buf.readUInt16LE(at + 30);
    if (keepTypeIndex !== undefined && typeIndex !== keepTypeIndex) continue;
    entries.push({
      pid: Number(buf.readBigUInt64LE(at + 8)),
      object: buf.readBigUInt64LE(at),
      handle: buf.readBigUInt64LE(at + 16),
      grantedAccess: buf.readUInt32LE(at + 24),
      typeIndex,
    });
  }
  return entries;
}

/** Every handle `pid` has open, of any type: its rows in the system table (no objects built per row). */
export function countProcessHandles(buf: Buffer, pid: number, validBytes = buf.length): number {
  const limit = Math.min(validBytes, buf.length);
  if (limit < TABLE_HEADER_BYTES) return 0;
  const count = Math.min(Number(buf.readBigUInt64LE(0)), Math.floor((limit - TABLE_HEADER_BYTES) / SYSTEM_ENTRY_BYTES));
  let held = 0;
  // UniqueProcessId is a ULONG_PTR; pids fit in its low 32 bits (Windows pids are multiples of 4 below 2^32).
  for (let i = 0, at = TABLE_HEADER_BYTES + 8; i < count; i++, at += SYSTEM_ENTRY_BYTES)
    if (buf.readUInt32LE(at) === pid && buf.readUInt32LE(at + 4) === 0) held++;
  return held;
}

/**
 * PROCESS_HANDLE_SNAPSHOT_INFORMATION (NtQueryInformationProcess class 51): 16-byte header, then
 * 40-byte `{HANDLE HandleValue; ULONG_PTR HandleCount; ULONG_PTR PointerCount; ULONG GrantedAccess;
 * ULONG ObjectTypeIndex; ULONG HandleAttributes; ULONG Reserved}`.
 */
export function parseProcessHandleTable(buf: Buffer, pid: number, validBytes = buf.length, keepTypeIndex?: number): HandleEntry[] {
  const limit = Math.min(validBytes, buf.length);
  if (limit < TABLE_HEADER_BYTES) return [];
  const declared = Number(buf.readBigUInt64LE(0));
  const count = Math.min(declared, Math.floor((limit - TABLE_HEADER_BYTES) / PROCESS_ENTRY_BYTES));
  const entries: HandleEntry[] = [];
  for (let i = 0; i < count; i++) {
    const at = TABLE_HEADER_BYTES + i * PROCESS_ENTRY_BYTES;
    const typeIndex = buf.readUInt32LE(at + 28);
    if (keepTypeIndex !== undefined && typeIndex !== keepTypeIndex) continue;
    entries.push({ pid, object: 0n, handle: buf.readBigUInt64LE(at), grantedAccess: buf.readUInt32LE(at + 24), typeIndex });
  }
  return entries;
}

/** UNICODE_STRING x64: `{USHORT Length; USHORT MaximumLength; (pad 4); PWSTR Buffer}`, 16 bytes. */
export interface UnicodeStringRef {
  lengthBytes: number;
  maximumBytes: number;
  address: bigint;
}

export const UNICODE_STRING_BYTES = 16;

export function readUnicodeStringRef(buf: Buffer, at: number): UnicodeStringRef {
  return { lengthBytes: buf.readUInt16LE(at), maximumBytes: buf.readUInt16LE(at + 2), address: buf.readBigUInt64LE(at + 8) };
}

/** Text of a UNICODE_STRING whose characters live in `buf`, which sits at `base` in memory. */
export function readUnicodeStringIn(buf: Buffer, at: number, base: bigint): string | null {
  const ref = readUnicodeStringRef(buf, at);
  if (ref.lengthBytes === 0 || ref.address === 0n) return ref.lengthBytes === 0 ? '' : null;
  const offset = ref.address - base;
  if (offset < 0n || offset + BigInt(ref.lengthBytes) > BigInt(buf.length)) return null;
  return buf.toString('utf16le', Number(offset), Number(offset) + (ref.lengthBytes & ~1));
}

export interface ObjectTypeRow {
  name: string;
  typeIndex: number;
}

const OBJECT_TYPE_INFORMATION_BYTES = 104;
const TYPE_INDEX_OFFSET = 90;

/**
 * OBJECT_TYPES_INFORMATION (NtQueryObject(NULL, 3)): `ULONG NumberOfTypes`, then entries aligned to 8,
 * each a 104-byte OBJECT_TYPE_INFORMATION followed by its name, the next entry at the next 8-byte
 * boundary. The name is read through its pointer (Windows and Wine place it differently relative
 * to the header). TypeIndex (offset 90) is what handle tables carry; before Windows 8.1 it is 0
 * and the index is the position + 2.
 */
export function parseObjectTypes(buf: Buffer, base: bigint): ObjectTypeRow[] {
  if (buf.length < 8) return [];
  const count = buf.readUInt32LE(0);
  const rows: ObjectTypeRow[] = [];
  let at = 8;
  for (let i = 0; i < count && at + OBJECT_TYPE_INFORMATION_BYTES <= buf.length; i++) {
    const ref = readUnicodeStringRef(buf, at);
    const name = readUnicodeStringIn(buf, at, base) ?? '';
    const typeIndex = buf.readUInt8(at + TYPE_INDEX_OFFSET) || i + 2;
    rows.push({ name, typeIndex });
    const nameEnd = ref.address !== 0n ? Number(ref.address - base) + ref.maximumBytes : at + OBJECT_TYPE_INFORMATION_BYTES + ref.maximumBytes;
    at = alignUp(Math.max(nameEnd, at + OBJECT_TYPE_INFORMATION_BYTES), 8);
  }
  return rows;
}

function alignUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

/** One process from SYSTEM_PROCESS_INFORMATION (class 5). */
export interface ProcessRow {
  pid: number;
  ppid: number;
  /** FILETIME ticks; with pid the identity of the process. */
  createTime: bigint;
  imageName: string;
  handleCount: number;
}

/**
 * SYSTEM_PROCESS_INFORMATION x64: NextEntryOffset @0, CreateTime @32, ImageName @56,
 * UniqueProcessId @80, InheritedFromUniqueProcessId @88, HandleCount @96. A chain ended by a
 * zero NextEntryOffset; a bad offset ends the walk instead of reading past the data.
 */
export function parseProcessList(buf: Buffer, base: bigint, validBytes = buf.length): ProcessRow[] {
  const limit = Math.min(validBytes, buf.length);
  const rows: ProcessRow[] = [];
  let at = 0;
  while (at + 104 <= limit) {
    const next = buf.readUInt32LE(at);
    rows.push({
      pid: Number(buf.readBigUInt64LE(at + 80)),
      ppid: Number(buf.readBigUInt64LE(at + 88)),
      createTime: buf.readBigInt64LE(at + 32),
      imageName: readUnicodeStringIn(buf, at + 56, base) ?? '',
      handleCount: buf.readUInt32LE(at + 96),
    });
    if (next === 0) break;
    at += next;
  }
  return rows;
}

/** OBJECT_NAME_INFORMATION: a UNICODE_STRING whose characters follow it in the same buffer. */
export function parseObjectName(buf: Buffer, base: bigint): string | null {
  if (buf.length < UNICODE_STRING_BYTES) return null;
  return readUnicodeStringIn(buf, 0, base);
}

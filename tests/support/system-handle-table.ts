// A SYSTEM_HANDLE_INFORMATION_EX buffer built by hand with the documented x64 layout, for the
// byte-level tests of the Windows table parsers (they run on any OS).

export interface HandleRow {
  object?: bigint;
  pid: number;
  handle: number;
  access: number;
  type: number;
}

/** `declared` may differ from the rows given (a truncated table); `offset` misaligns the start. */
export function systemHandleTable(rows: HandleRow[], declared = rows.length, offset = 0): Buffer {
  const backing = Buffer.alloc(offset + 16 + rows.length * 40);
  const buf = backing.subarray(offset);
  buf.writeBigUInt64LE(BigInt(declared), 0);
  rows.forEach((r, i) => {
    const at = 16 + i * 40;
    buf.writeBigUInt64LE(r.object ?? 0n, at);
    buf.writeBigUInt64LE(BigInt(r.pid), at + 8);
    buf.writeBigUInt64LE(BigInt(r.handle), at + 16);
    buf.writeUInt32LE(r.access, at + 24);
    buf.writeUInt16LE(7, at + 28); // CreatorBackTraceIndex shares the word: must not be read as the type
    buf.writeUInt16LE(r.type, at + 30);
  });
  return buf;
}

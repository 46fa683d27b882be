// A process's environment as Windows keeps it: RTL_USER_PROCESS_PARAMETERS.Environment points at a
// block of UTF-16LE `NAME=value` strings, each NUL-terminated, the block ended by an empty string.
// Names compare case-insensitively (GetEnvironmentVariableW does), and the hidden per-drive
// current directories (`=C:=C:\work`) have names that start with `=`.

/** Entries in block order, up to the empty string that ends the block. */
export function parseEnvironmentBlock(block: Buffer): [name: string, value: string][] {
  const text = block.toString('utf16le', 0, block.length & ~1);
  const end = text.indexOf('\0\0');
  const parts = (end === -1 ? text : text.slice(0, end)).split('\0');
  // Cut short (no terminator read): the last entry may be partial, and a partial value is a wrong value.
  if (end === -1) parts.pop();
  const entries: [string, string][] = [];
  for (const entry of parts) {
    if (entry === '') continue;
    // The first `=` after the first character: `=C:=C:\work` is the variable `=C:`.
    const at = entry.indexOf('=', 1);
    if (at === -1) continue;
    entries.push([entry.slice(0, at), entry.slice(at + 1)]);
  }
  return entries;
}

export function findEnvironmentVariable(block: Buffer, name: string): string | null {
  const wanted = name.toUpperCase();
  for (const [key, value] of parseEnvironmentBlock(block)) if (key.toUpperCase() === wanted) return value;
  return null;
}

/** Where the block ends: the byte after its terminating empty string, or null if `bytes` holds no end yet. */
export function environmentBlockLength(bytes: Buffer): number | null {
  for (let at = 0; at + 3 < bytes.length; at += 2) {
    if (bytes[at] === 0 && bytes[at + 1] === 0 && bytes[at + 2] === 0 && bytes[at + 3] === 0) return at + 4;
  }
  return null;
}

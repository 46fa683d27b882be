// Byte-level tests of the ntdll buffer parsers: buffers built by hand with the documented x64
// layouts, so they run on any OS.
import { describe, expect, it } from 'vitest';
import { systemHandleTable, type HandleRow } from '../../tests/support/system-handle-table.js';
import { countProcessHandles, parseObjectName, parseObjectTypes, parseProcessHandleTable, parseProcessList, parseSystemHandleTable } from './handle-table.js';

const rows: HandleRow[] = [
  { object: 0xffff800012345678n, pid: 4, handle: 0x4, access: 0x0012019f, type: 37 },
  { pid: 1234, handle: 0x1a4, access: 0x00100020, type: 37 },
  { pid: 1234, handle: 0x1a8, access: 0x000f003f, type: 44 },
];

describe('parseSystemHandleTable (SystemExtendedHandleInformation)', () => {
  it('reads every field at its x64 offset', () => {
    expect(parseSystemHandleTable(systemHandleTable(rows))).toEqual([
      { pid: 4, object: 0xffff800012345678n, handle: 4n, grantedAccess: 0x0012019f, typeIndex: 37 },
      { pid: 1234, object: 0n, handle: 0x1a4n, grantedAccess: 0x00100020, typeIndex: 37 },
      { pid: 1234, object: 0n, handle: 0x1a8n, grantedAccess: 0x000f003f, typeIndex: 44 },
    ]);
  });

  it('keeps only the requested type (File) and does not skip the 0x0012019f access mask', () => {
    const files = parseSystemHandleTable(systemHandleTable(rows), undefined, 37);
    expect(files.map((e) => e.handle)).toEqual([4n, 0x1a4n]);
  });

  it('clamps a header that counts more rows than the data holds (the table grew between calls)', () => {
    const buf = systemHandleTable(rows, 5000);
    expect(parseSystemHandleTable(buf)).toHaveLength(3);
    expect(parseSystemHandleTable(buf, 16 + 2 * 40)).toHaveLength(2);
  });

  it('ignores a torn trailing row and tolerates odd, tiny and empty sizes', () => {
    const buf = systemHandleTable(rows);
    expect(parseSystemHandleTable(buf, buf.length - 1)).toHaveLength(2);
    expect(parseSystemHandleTable(buf.subarray(0, 17))).toEqual([]);
    expect(parseSystemHandleTable(Buffer.alloc(7))).toEqual([]);
    expect(parseSystemHandleTable(Buffer.alloc(0))).toEqual([]);
  });
});

describe('countProcessHandles', () => {
  it("counts a process's rows of every type, within the valid bytes, and never a pid that only matches in its low word", () => {
    const buf = systemHandleTable([...rows, { pid: 1234 + 2 ** 32, handle: 0x8, access: 0, type: 37 }]);
    expect([countProcessHandles(buf, 1234), countProcessHandles(buf, 4), countProcessHandles(buf, 77)]).toEqual([2, 1, 0]);
    expect(countProcessHandles(buf, 1234, 16 + 2 * 40)).toBe(1);
    expect(countProcessHandles(systemHandleTable(rows, 5000), 1234)).toBe(2);
    expect(countProcessHandles(Buffer.alloc(7), 4)).toBe(0);
  });
});

describe('parseProcessHandleTable (ProcessHandleInformation)', () => {
  it('reads value, access and a 32-bit type index', () => {
    const buf = Buffer.alloc(16 + 2 * 40);
    buf.writeBigUInt64LE(2n, 0);
    buf.writeBigUInt64LE(0x44n, 16);
    buf.writeUInt32LE(0x120089, 16 + 24);
    buf.writeUInt32LE(37, 16 + 28);
    buf.writeBigUInt64LE(0x48n, 56);
    buf.writeUInt32LE(40, 56 + 28);
    expect(parseProcessHandleTable(buf, 99)).toEqual([
      { pid: 99, object: 0n, handle: 0x44n, grantedAccess: 0x120089, typeIndex: 37 },
      { pid: 99, object: 0n, handle: 0x48n, grantedAccess: 0, typeIndex: 40 },
    ]);
    expect(parseProcessHandleTable(buf, 99, buf.length, 40).map((e) => e.handle)).toEqual([0x48n]);
    expect(parseProcessHandleTable(buf, 99, 16 + 40 + 39)).toHaveLength(1);
  });
});

/** A UNICODE_STRING at `at` whose characters are at `textAt`, the buffer living at `base`. */
function writeUnicodeString(buf: Buffer, at: number, text: string, textAt: number, base: bigint, extraMax = 2): void {
  const bytes = Buffer.from(text, 'utf16le');
  buf.writeUInt16LE(bytes.length, at);
  buf.writeUInt16LE(bytes.length + extraMax, at + 2);
  buf.writeBigUInt64LE(base + BigInt(textAt), at + 8);
  bytes.copy(buf, textAt);
}

describe('parseObjectTypes (ObjectTypesInformation)', () => {
  const base = 0x7ff0_0000_0000n;
  function types(names: string[], typeIndexes: number[]): Buffer {
    const buf = Buffer.alloc(4096);
    buf.writeUInt32LE(names.length, 0);
    let at = 8;
    names.forEach((name, i) => {
      writeUnicodeString(buf, at, name, at + 104, base);
      buf.writeUInt8(typeIndexes[i]!, at + 90);
      at = Math.ceil((at + 104 + name.length * 2 + 2) / 8) * 8;
    });
    return buf;
  }

  it('walks entries aligned to 8 and reads TypeIndex', () => {
    expect(parseObjectTypes(types(['Type', 'Directory', 'File'], [2, 3, 37]), base)).toEqual([
      { name: 'Type', typeIndex: 2 },
      { name: 'Directory', typeIndex: 3 },
      { name: 'File', typeIndex: 37 },
    ]);
  });

  it('falls back to position + 2 where TypeIndex is 0 (before Windows 8.1)', () => {
    expect(parseObjectTypes(types(['Type', 'File'], [0, 0]), base).map((r) => r.typeIndex)).toEqual([2, 3]);
  });

  it('stops at the end of a truncated buffer instead of reading past it', () => {
    const full = types(['Type', 'Directory', 'File'], [2, 3, 4]);
    expect(parseObjectTypes(full.subarray(0, 8 + 104 + 16), base).map((r) => r.name)).toEqual(['Type']);
  });
});

describe('parseProcessList (SystemProcessInformation)', () => {
  it('follows NextEntryOffset and resolves image names against the buffer address', () => {
    const base = 0x1000n;
    const buf = Buffer.alloc(600);
    const entry = (at: number, next: number, pid: number, ppid: number, name: string, textAt: number) => {
      buf.writeUInt32LE(next, at);
      buf.writeBigInt64LE(133_000_000_000_000_000n + BigInt(pid), at + 32);
      if (name) writeUnicodeString(buf, at + 56, name, textAt, base);
      buf.writeBigUInt64LE(BigInt(pid), at + 80);
      buf.writeBigUInt64LE(BigInt(ppid), at + 88);
      buf.writeUInt32LE(pid * 10, at + 96);
    };
    entry(0, 256, 0, 0, '', 0); // the idle process has no name
    entry(256, 0, 1234, 4, 'node.exe', 500);
    expect(parseProcessList(buf, base)).toEqual([
      { pid: 0, ppid: 0, createTime: 133_000_000_000_000_000n, imageName: '', handleCount: 0 },
      { pid: 1234, ppid: 4, createTime: 133_000_000_000_001_234n, imageName: 'node.exe', handleCount: 12340 },
    ]);
  });

  it('ends the walk on an offset past the data', () => {
    const buf = Buffer.alloc(200);
    buf.writeUInt32LE(4096, 0);
    buf.writeBigUInt64LE(8n, 80);
    expect(parseProcessList(buf, 0n).map((r) => r.pid)).toEqual([8]);
  });
});

describe('parseObjectName (ObjectNameInformation)', () => {
  it('reads the name that follows its UNICODE_STRING, Wine and Windows forms alike', () => {
    for (const name of ['\\Device\\HarddiskVolume3\\Users\\me\\dir', '\\??\\Z:\\tmp\\dir']) {
      const buf = Buffer.alloc(16 + name.length * 2 + 2);
      writeUnicodeString(buf, 0, name, 16, 0x5000n);
      expect(parseObjectName(buf, 0x5000n)).toBe(name);
    }
  });

  it('returns null for a pointer outside the buffer and empty for a nameless object', () => {
    const buf = Buffer.alloc(32);
    buf.writeUInt16LE(8, 0);
    buf.writeBigUInt64LE(0x9999n, 8);
    expect(parseObjectName(buf, 0x5000n)).toBeNull();
    expect(parseObjectName(Buffer.alloc(16), 0x5000n)).toBe('');
    expect(parseObjectName(Buffer.alloc(3), 0n)).toBeNull();
  });
});

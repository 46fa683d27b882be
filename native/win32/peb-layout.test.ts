import { describe, expect, it } from 'vitest';
import { decodeUtf16, parseBasicInformation, parseProcessParameters, X64_LAYOUT } from './peb-layout.js';

describe('PEB decoding (x64)', () => {
  it('reads PebBaseAddress, the pid and InheritedFromUniqueProcessId from PROCESS_BASIC_INFORMATION', () => {
    const buf = Buffer.alloc(48);
    buf.writeBigUInt64LE(0x7ff6_1234_5000n, 8);
    buf.writeBigUInt64LE(4321n, 32);
    buf.writeBigUInt64LE(1000n, 40);
    expect(parseBasicInformation(buf)).toEqual({ pebAddress: 0x7ff6_1234_5000n, pid: 4321, ppid: 1000 });
  });

  it('reads CurrentDirectory (path and handle), ImagePathName and CommandLine from RTL_USER_PROCESS_PARAMETERS', () => {
    const buf = Buffer.alloc(X64_LAYOUT.parametersBytes);
    const ref = (at: number, length: number, address: bigint) => {
      buf.writeUInt16LE(length, at);
      buf.writeUInt16LE(length + 2, at + 2);
      buf.writeBigUInt64LE(address, at + 8);
    };
    ref(0x38, 20, 0xa000n);
    buf.writeBigUInt64LE(0xc4n, 0x48);
    ref(0x60, 40, 0xb000n);
    ref(0x70, 60, 0xc000n);
    expect(parseProcessParameters(buf)).toEqual({
      currentDirectory: { lengthBytes: 20, maximumBytes: 22, address: 0xa000n },
      currentDirectoryHandle: 0xc4n,
      imagePath: { lengthBytes: 40, maximumBytes: 42, address: 0xb000n },
      commandLine: { lengthBytes: 60, maximumBytes: 62, address: 0xc000n },
    });
  });

  it('refuses a short read instead of decoding garbage', () => {
    expect(() => parseProcessParameters(Buffer.alloc(0x70))).toThrow(RangeError);
  });

  it('decodes UTF-16LE text, dropping a torn last byte', () => {
    const bytes = Buffer.from('C:\\Users\\Zoë\\ü.exe', 'utf16le');
    expect(decodeUtf16(bytes)).toBe('C:\\Users\\Zoë\\ü.exe');
    expect(decodeUtf16(Buffer.concat([bytes, Buffer.from([0x41])]))).toBe('C:\\Users\\Zoë\\ü.exe');
  });
});

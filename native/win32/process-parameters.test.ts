// A WOW64 process as Windows lays it out: a 64-bit PEB and parameters (the copy made at start), and
// the PEB32 with RTL_USER_PROCESS_PARAMETERS32 that its 32-bit code keeps up to date. This one started
// in C:\start and then changed directory (cmd.exe's `cd`), and set a variable, from 32-bit code.
import { describe, expect, it } from 'vitest';
import { findEnvironmentVariable } from './environment-block.js';
import { readEnvironment, readParameters, type RemoteProcessMemory } from './process-parameters.js';

/** Readable regions of a process, as ReadProcessMemory sees them: a read outside them fails. */
class FakeMemory implements RemoteProcessMemory {
  private readonly regions: [base: bigint, bytes: Buffer][] = [];
  constructor(
    private readonly peb: bigint,
    private readonly peb32: bigint,
  ) {}
  region(base: bigint, size: number): Buffer {
    const bytes = Buffer.alloc(size);
    this.regions.push([base, bytes]);
    return bytes;
  }
  text(base: bigint, text: string): { base: bigint; bytes: number } {
    const encoded = Buffer.from(text, 'utf16le');
    encoded.copy(this.region(base, encoded.length + 2));
    return { base, bytes: encoded.length };
  }
  pebAddress = () => this.peb;
  wow64PebAddress = () => this.peb32;
  read(address: bigint, bytes: number): Buffer {
    for (const [base, region] of this.regions) {
      const at = Number(address - base);
      if (address >= base && at + bytes <= region.length) return Buffer.from(region.subarray(at, at + bytes));
    }
    throw new Error(`ReadProcessMemory(0x${address.toString(16)}, ${bytes}): ERROR_PARTIAL_COPY`);
  }
}

const string64 = (buf: Buffer, at: number, s: { base: bigint; bytes: number }) => {
  buf.writeUInt16LE(s.bytes, at);
  buf.writeUInt16LE(s.bytes + 2, at + 2);
  buf.writeBigUInt64LE(s.base, at + 8);
};
const string32 = (buf: Buffer, at: number, s: { base: bigint; bytes: number }) => {
  buf.writeUInt16LE(s.bytes, at);
  buf.writeUInt16LE(s.bytes + 2, at + 2);
  buf.writeUInt32LE(Number(s.base), at + 4);
};

function wow64Process(): FakeMemory {
  const memory = new FakeMemory(0x7ff7_0000_0000n, 0x0030_0000n);
  // The 64-bit side: PEB.ProcessParameters @0x20 -> parameters at 0x1f_0000 (x64 offsets).
  memory.region(0x7ff7_0000_0000n, 0x40).writeBigUInt64LE(0x1f_0000n, 0x20);
  const params64 = memory.region(0x1f_0000n, 0x400);
  string64(params64, 0x38, memory.text(0x1f_1000n, 'C:\\start\\'));
  params64.writeBigUInt64LE(0x40n, 0x48);
  string64(params64, 0x60, memory.text(0x1f_2000n, 'C:\\Windows\\SysWOW64\\cmd.exe'));
  string64(params64, 0x70, memory.text(0x1f_3000n, 'cmd.exe /k'));
  const env64 = Buffer.from('STAGE=start\0\0', 'utf16le');
  env64.copy(memory.region(0x1f_4000n, env64.length));
  params64.writeBigUInt64LE(0x1f_4000n, 0x80);
  params64.writeBigUInt64LE(BigInt(env64.length), 0x3f0);
  // The 32-bit side: PEB32.ProcessParameters @0x10 -> parameters at 0x31_0000 (x86 offsets).
  memory.region(0x0030_0000n, 0x20).writeUInt32LE(0x31_0000, 0x10);
  const params32 = memory.region(0x31_0000n, 0x300);
  string32(params32, 0x24, memory.text(0x31_1000n, 'C:\\later\\build\\'));
  params32.writeUInt32LE(0x5c, 0x2c);
  string32(params32, 0x38, memory.text(0x31_2000n, 'C:\\Windows\\SysWOW64\\cmd.exe'));
  string32(params32, 0x40, memory.text(0x31_3000n, 'cmd.exe /k'));
  const env32 = Buffer.from('STAGE=later\0\0', 'utf16le');
  env32.copy(memory.region(0x31_4000n, env32.length));
  params32.writeUInt32LE(0x31_4000, 0x48);
  params32.writeUInt32LE(env32.length, 0x290);
  return memory;
}

describe('process parameters', () => {
  it('a WOW64 process: cwd, its handle, command line and environment come from the PEB32, not the 64-bit copy made at start', () => {
    const memory = wow64Process();
    expect(readParameters(memory)).toEqual({
      currentDirectory: 'C:\\later\\build\\',
      currentDirectoryHandle: 0x5cn,
      imagePath: 'C:\\Windows\\SysWOW64\\cmd.exe',
      commandLine: 'cmd.exe /k',
    });
    expect(findEnvironmentVariable(readEnvironment(memory), 'STAGE')).toBe('later');
  });

  it('a native process (no PEB32): the 64-bit PEB', () => {
    const memory = wow64Process();
    memory.wow64PebAddress = () => 0n;
    expect(readParameters(memory).currentDirectory).toBe('C:\\start\\');
    expect(findEnvironmentVariable(readEnvironment(memory), 'STAGE')).toBe('start');
  });
});

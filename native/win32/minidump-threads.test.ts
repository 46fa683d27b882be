// SYSTEM_PROCESS_INFORMATION entries built byte by byte as the x64 layout has them: the thread
// entries of the asked-for process only, their state names, and null for a pid that is not listed.
import { describe, expect, it } from 'vitest';
import { parseProcessThreads } from './minidump-threads.js';

interface FakeThread {
  tid: number;
  state: number;
  waitReason: number;
  start: bigint;
}

function processEntry(pid: number, threads: FakeThread[], last: boolean): Buffer {
  const buf = Buffer.alloc(0x100 + threads.length * 0x50);
  buf.writeUInt32LE(last ? 0 : buf.length, 0); // NextEntryOffset
  buf.writeUInt32LE(threads.length, 4); // NumberOfThreads
  buf.writeBigUInt64LE(BigInt(pid), 80); // UniqueProcessId
  threads.forEach((t, i) => {
    const at = 0x100 + i * 0x50;
    buf.writeBigUInt64LE(t.start, at + 32);
    buf.writeBigUInt64LE(BigInt(pid), at + 40);
    buf.writeBigUInt64LE(BigInt(t.tid), at + 48);
    buf.writeUInt32LE(t.state, at + 68);
    buf.writeUInt32LE(t.waitReason, at + 72);
  });
  return buf;
}

describe('parseProcessThreads', () => {
  const list = Buffer.concat([
    processEntry(4, [{ tid: 8, state: 2, waitReason: 0, start: 0x1000n }], false),
    processEntry(
      300,
      [
        { tid: 304, state: 5, waitReason: 6, start: 0x7ff6a0001000n },
        { tid: 308, state: 5, waitReason: 37, start: 0n },
        { tid: 312, state: 2, waitReason: 0, start: 0x7ff6a0002000n },
      ],
      true,
    ),
  ]);

  it("lists the asked-for process's threads with state, wait reason and start address", () => {
    expect(parseProcessThreads(list, 300)).toEqual([
      { id: 304, frames: [], state: 'Waiting:UserRequest', startAddress: '0x7ff6a0001000' },
      { id: 308, frames: [], state: 'Waiting:WrAlertByThreadId' },
      { id: 312, frames: [], state: 'Running', startAddress: '0x7ff6a0002000' },
    ]);
    expect(parseProcessThreads(list, 4)).toEqual([{ id: 8, frames: [], state: 'Running', startAddress: '0x1000' }]);
  });

  it('answers null for a pid not in the list, and stops at the valid bytes', () => {
    expect(parseProcessThreads(list, 999)).toBeNull();
    expect(parseProcessThreads(list, 300, 0x150)).toBeNull();
    expect(parseProcessThreads(list, 300, 0x150 + 0x100 + 0x50)).toHaveLength(1);
  });
});

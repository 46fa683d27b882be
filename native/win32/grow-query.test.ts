// The growth loop against an in-memory table that grows between the sizing call and the real one,
// as the system handle table does on a busy machine.
import { describe, expect, it } from 'vitest';
import { GrowingQuery, ReusedBuffer, type QueryMemory } from './grow-query.js';
import { NtStatusError, STATUS_INFO_LENGTH_MISMATCH } from './win-errors.js';

function memory(size: number, log: string[]): QueryMemory & { bytes: Buffer } {
  const bytes = Buffer.alloc(size);
  log.push(`alloc ${size}`);
  return { size, bytes, read: (n = size) => Buffer.from(bytes.subarray(0, n)), free: () => log.push(`free ${size}`) };
}

describe('GrowingQuery', () => {
  it('grows with headroom while the table keeps growing, then returns only the written bytes', () => {
    const log: string[] = [];
    let tableBytes = 100;
    const query = new GrowingQuery('Q', (n) => memory(n, log), 64);
    const result = query.run((m) => {
      const needed = tableBytes;
      tableBytes += 500; // the table grows after every call
      if (m.size < needed) return { status: STATUS_INFO_LENGTH_MISMATCH, returnLength: needed };
      m.bytes.fill(7, 0, needed);
      return { status: 0, returnLength: needed };
    });
    expect(result.bytes.length).toBeGreaterThan(100);
    expect([...result.bytes].every((b) => b === 7)).toBe(true);
    expect(log.filter((l) => l.startsWith('alloc')).length).toBeGreaterThan(1);
    // Every buffer but the live one was freed; the live one is kept for the next poll.
    expect(log.filter((l) => l.startsWith('free')).length).toBe(log.filter((l) => l.startsWith('alloc')).length - 1);
    query.dispose();
    expect(log.filter((l) => l.startsWith('free')).length).toBe(log.filter((l) => l.startsWith('alloc')).length);
  });

  it('reuses its buffer on the next call (steady state allocates nothing)', () => {
    const log: string[] = [];
    const query = new GrowingQuery('Q', (n) => memory(n, log), 256);
    query.run(() => ({ status: 0, returnLength: 16 }));
    query.run(() => ({ status: 0, returnLength: 16 }));
    expect(log).toEqual(['alloc 256']);
  });

  it('reserve: the next call gets memory of that size at once, allocated now; a smaller reserve keeps what it has', () => {
    const log: string[] = [];
    const query = new GrowingQuery('Q', (n) => memory(n, log), 256);
    query.reserve(4096);
    expect(log).toEqual(['alloc 4096']);
    const sizes: number[] = [];
    query.run((m) => (sizes.push(m.size), { status: m.size < 4000 ? STATUS_INFO_LENGTH_MISMATCH : 0, returnLength: 4000 }));
    query.reserve(1024);
    expect([sizes, query.size, log]).toEqual([[4096], 4096, ['alloc 4096']]);
  });

  it('throws NtStatusError for any other failure, and gives up on a table that never fits', () => {
    const log: string[] = [];
    const query = new GrowingQuery('NtQueryX', (n) => memory(n, log), 16);
    expect(() => query.run(() => ({ status: 0xc0000022, returnLength: 0 }))).toThrow(new NtStatusError('NtQueryX', 0xc0000022));
    expect(() => query.run(() => ({ status: STATUS_INFO_LENGTH_MISMATCH, returnLength: 0 }))).toThrow(NtStatusError);
  });

  it('into a ReusedBuffer: the bytes the call wrote, read in place, the same memory again at the next call', () => {
    const query = new GrowingQuery('Q', (n) => new ReusedBuffer(n), 64);
    let filled = 0;
    const fill = (memory: ReusedBuffer, bytes: number) => {
      memory.buffer.fill(++filled, 0, bytes);
      return { status: 0, returnLength: bytes };
    };
    const first = query.run((m) => fill(m, 40));
    expect([first.bytes.length, first.bytes[0]]).toEqual([40, 1]);
    const second = query.run((m) => fill(m, 24));
    expect(second.memory).toBe(first.memory);
    expect(second.bytes.buffer).toBe(first.bytes.buffer); // no copy
    expect([second.bytes.length, first.bytes[0]]).toEqual([24, 2]); // valid until the next call
  });
});

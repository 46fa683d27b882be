// An address space as NtQueryVirtualMemory describes it, region by region: an image (a module, or a DLL
// mapped for its resources: the walk cannot tell, the module list does), a
// file mapped as a data view in two regions of one allocation (an SQLite -shm), a pagefile-backed
// section (shared memory, no file), a reserved view, private memory, and a second view of the file.
import { describe, expect, it } from 'vitest';
import { mappedFiles, MEMORY_BASIC_INFORMATION_BYTES, parseMemoryBasicInformation, type MemoryRegion } from './mapped-views.js';

const MEM_COMMIT = 0x1000;
const MEM_RESERVE = 0x2000;
const MEM_PRIVATE = 0x20000;
const MEM_MAPPED = 0x40000;
const MEM_IMAGE = 0x1000000;
const SHM = '\\Device\\HarddiskVolume3\\Users\\RUNNER~1\\AppData\\Local\\Temp\\pytest-0\\test_db0\\data.db-shm';

/** MEMORY_BASIC_INFORMATION bytes, as the call fills them. */
function mbi(region: MemoryRegion): Buffer {
  const buf = Buffer.alloc(MEMORY_BASIC_INFORMATION_BYTES);
  buf.writeBigUInt64LE(region.base, 0);
  buf.writeBigUInt64LE(region.allocationBase, 8);
  buf.writeUInt32LE(0x02, 16); // AllocationProtect: PAGE_READONLY
  buf.writeBigUInt64LE(region.size, 24);
  buf.writeUInt32LE(region.state, 32);
  buf.writeUInt32LE(0x02, 36); // Protect
  buf.writeUInt32LE(region.type, 40);
  return buf;
}

const space: [MemoryRegion, string | null][] = [
  [{ base: 0n, allocationBase: 0n, size: 0x10000n, state: 0x10000 /* MEM_FREE */, type: 0 }, null],
  [{ base: 0x10000n, allocationBase: 0x10000n, size: 0x8000n, state: MEM_COMMIT, type: MEM_PRIVATE }, null],
  [{ base: 0x18000n, allocationBase: 0x18000n, size: 0x8000n, state: MEM_COMMIT, type: MEM_MAPPED }, SHM],
  [{ base: 0x20000n, allocationBase: 0x18000n, size: 0x8000n, state: MEM_COMMIT, type: MEM_MAPPED }, SHM],
  [{ base: 0x28000n, allocationBase: 0x28000n, size: 0x10000n, state: MEM_COMMIT, type: MEM_MAPPED }, null],
  [{ base: 0x38000n, allocationBase: 0x38000n, size: 0x10000n, state: MEM_RESERVE, type: MEM_MAPPED }, '\\Device\\HarddiskVolume3\\reserved.bin'],
  [{ base: 0x48000n, allocationBase: 0x48000n, size: 0x10000n, state: MEM_COMMIT, type: MEM_MAPPED }, SHM],
  [{ base: 0x58000n, allocationBase: 0n, size: 0x7ff6_0000_0000n - 0x58000n, state: 0x10000 /* MEM_FREE */, type: 0 }, null],
  [
    { base: 0x7ff6_0000_0000n, allocationBase: 0x7ff6_0000_0000n, size: 0x20000n, state: MEM_COMMIT, type: MEM_IMAGE },
    '\\Device\\HarddiskVolume3\\app\\python.exe',
  ],
];

describe('mapped views', () => {
  it('decodes MEMORY_BASIC_INFORMATION', () => {
    expect(parseMemoryBasicInformation(mbi(space[3]![0]))).toEqual(space[3]![0]);
  });

  it('finds a file kept only by a data or image view once, asking each allocation once; shared memory and reserved views are not it', () => {
    const asked: bigint[] = [];
    const files = mappedFiles({
      region: (address) => {
        const hit = space.find(([r]) => address >= r.base && address < r.base + r.size);
        return hit ? parseMemoryBasicInformation(mbi(hit[0])) : null;
      },
      fileName: (base) => {
        asked.push(base);
        return space.find(([r]) => r.allocationBase === base)?.[1] ?? null;
      },
    });
    expect(files).toEqual([SHM, '\\Device\\HarddiskVolume3\\app\\python.exe']);
    expect(asked).toEqual([0x18000n, 0x28000n, 0x48000n, 0x7ff6_0000_0000n]);
  });

  it('stops on an answer that does not move forward', () => {
    const files = mappedFiles({ region: () => ({ base: 0n, allocationBase: 0n, size: 0n, state: MEM_COMMIT, type: MEM_MAPPED }), fileName: () => SHM });
    expect(files).toEqual([]);
  });
});

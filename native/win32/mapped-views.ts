// Files a process keeps only through a mapped view: MapViewOfFile of a file whose handles are all
// closed (SQLite's -shm, git's pack files, .NET's memory-mapped files), or an image mapped for its
// resources (LoadLibraryExW with LOAD_LIBRARY_AS_IMAGE_RESOURCE: a view of SEC_IMAGE, in no module
// list). The view's section keeps the file open, so deleting it or its directory fails as a handle
// would make it fail, yet no handle table shows it. Found by walking the address space
// (MEMORY_BASIC_INFORMATION) for MEM_MAPPED and MEM_IMAGE regions and asking each allocation its file
// (MemoryMappedFilenameInformation); the images that are loaded modules are left to the module list by
// the caller. The walk is pure over injected queries, so it is tested with bytes.

/** MEMORY_BASIC_INFORMATION (x64), 48 bytes. */
export const MEMORY_BASIC_INFORMATION_BYTES = 48;
const MEM_COMMIT = 0x1000;
const MEM_MAPPED = 0x40000;
const MEM_IMAGE = 0x1000000;
/** The user address space ends below this on x64 (128 TiB). */
const USER_SPACE_END = 0x7fff_ffff_0000n;

export interface MemoryRegion {
  base: bigint;
  allocationBase: bigint;
  size: bigint;
  state: number;
  type: number;
}

export function parseMemoryBasicInformation(buf: Buffer): MemoryRegion {
  return {
    base: buf.readBigUInt64LE(0),
    allocationBase: buf.readBigUInt64LE(8),
    size: buf.readBigUInt64LE(24),
    state: buf.readUInt32LE(32),
    type: buf.readUInt32LE(40),
  };
}

export interface MappedViewQueries {
  /** The region at `address`; null past the last one (STATUS_INVALID_PARAMETER). */
  region(address: bigint): MemoryRegion | null;
  /** The kernel name of the file mapped at `allocationBase`; null for a pagefile-backed section. */
  fileName(allocationBase: bigint): string | null;
}

/** The files mapped as data or image views, each once, in address order; each allocation is asked once, at most `maxRegions` regions read. */
export function mappedFiles(queries: MappedViewQueries, maxRegions = 200_000): string[] {
  const files = new Set<string>();
  const asked = new Set<bigint>();
  let address = 0n;
  for (let i = 0; i < maxRegions && address < USER_SPACE_END; i++) {
    const region = queries.region(address);
    if (region === null || region.size === 0n) break;
    if ((region.type === MEM_MAPPED || region.type === MEM_IMAGE) && region.state === MEM_COMMIT && !asked.has(region.allocationBase)) {
      asked.add(region.allocationBase);
      const name = queries.fileName(region.allocationBase);
      if (name !== null && name !== '') files.add(name);
    }
    const next = region.base + region.size;
    if (next <= address) break; // a malformed answer must not loop
    address = next;
  }
  return [...files];
}

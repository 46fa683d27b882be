// A process's parameters (command line, image path, current directory and its handle, environment)
// read through its memory, in whichever layout is live: the 32-bit one for a WOW64 process, whose
// 64-bit copy still says what was true when it started. Pure over RemoteProcessMemory, so the WOW64
// path, which Wine here cannot run (no 32-bit Wine), is tested with the bytes Windows has.
import { environmentBlockLength } from './environment-block.js';
import { decodeUtf16, layoutOf, parseProcessParameters, readPointer, type ParametersLayout } from './peb-layout.js';

export interface RemoteProcessMemory {
  /** PROCESS_BASIC_INFORMATION.PebBaseAddress: the native PEB. */
  pebAddress(): bigint;
  /** ProcessWow64Information: a WOW64 process's PEB32, 0n for a native process. */
  wow64PebAddress(): bigint;
  /** ReadProcessMemory; throws when the range is not readable. */
  read(address: bigint, bytes: number): Buffer;
}

export interface ProcessParameters {
  commandLine: string;
  imagePath: string;
  currentDirectory: string;
  currentDirectoryHandle: bigint;
}

/** The live RTL_USER_PROCESS_PARAMETERS: its address and layout. */
export function liveParameters(memory: RemoteProcessMemory): { address: bigint; layout: ParametersLayout } {
  const peb32 = memory.wow64PebAddress();
  const layout = layoutOf(peb32);
  const peb = peb32 === 0n ? memory.pebAddress() : peb32;
  const address = readPointer(memory.read(peb + BigInt(layout.pebParametersOffset), layout.pointerBytes), 0, layout);
  return { address, layout };
}

export function readParameters(memory: RemoteProcessMemory): ProcessParameters {
  const { address, layout } = liveParameters(memory);
  const refs = parseProcessParameters(memory.read(address, layout.parametersBytes), layout);
  const text = (ref: { lengthBytes: number; address: bigint }) => (ref.lengthBytes === 0 ? '' : decodeUtf16(memory.read(ref.address, ref.lengthBytes)));
  return {
    commandLine: text(refs.commandLine),
    imagePath: text(refs.imagePath),
    currentDirectory: text(refs.currentDirectory),
    currentDirectoryHandle: refs.currentDirectoryHandle,
  };
}

/** The environment block (ProcessParameters->Environment), by EnvironmentSize where plausible. */
export function readEnvironment(memory: RemoteProcessMemory): Buffer {
  const { address, layout } = liveParameters(memory);
  const head = memory.read(address, layout.environmentSize + layout.pointerBytes);
  const block = readPointer(head, layout.environment, layout);
  const size = head.length >= layout.environmentSize + layout.pointerBytes ? Number(readPointer(head, layout.environmentSize, layout)) : 0;
  return readEnvironmentAt(block, size, (at, bytes) => memory.read(at, bytes));
}

const PAGE_BYTES = 4096;
const MAX_ENVIRONMENT_BYTES = 64 * 1024 * 1024;

/**
 * The block at `address`: `size` bytes when plausible, else page by page up to its terminating
 * empty string (ReadProcessMemory fails on a read that crosses into an unmapped page, so reads never
 * cross a page boundary).
 */
export function readEnvironmentAt(address: bigint, size: number, read: (address: bigint, bytes: number) => Buffer): Buffer {
  if (address === 0n) return Buffer.alloc(0);
  if (size > 0 && size <= MAX_ENVIRONMENT_BYTES) return read(address, size);
  const chunks: Buffer[] = [];
  let total = 0;
  let at = address;
  while (total < MAX_ENVIRONMENT_BYTES) {
    const chunk = read(at, PAGE_BYTES - Number(at % BigInt(PAGE_BYTES)));
    if (chunk.length === 0) break;
    chunks.push(chunk);
    total += chunk.length;
    at += BigInt(chunk.length);
    const soFar = Buffer.concat(chunks);
    const end = environmentBlockLength(soFar);
    if (end !== null) return soFar.subarray(0, end);
  }
  return Buffer.concat(chunks);
}

// Calls a size-probing NT query until its answer fits, keeping the buffer between calls so a
// steady-state poll allocates nothing. The handle table can grow between the sizing call and the
// real one: STATUS_INFO_LENGTH_MISMATCH then means "grow and ask again", with headroom.
import { NtStatusError, ntSuccess, STATUS_BUFFER_OVERFLOW, STATUS_BUFFER_TOO_SMALL, STATUS_INFO_LENGTH_MISMATCH } from './win-errors.js';

export interface QueryMemory {
  readonly size: number;
  read(length?: number): Buffer;
  free(): void;
}

export interface GrowResult<M extends QueryMemory> {
  bytes: Buffer;
  /** The memory that was filled: a NativeMemory's address resolves the self-pointers of answers that hold some. */
  memory: M;
}

/**
 * Memory for an answer that holds no pointers into itself (the handle tables): a Buffer koffi passes by
 * pointer for the duration of the call (koffi's "output buffers"), read without a copy and reused by the
 * next call. koffi.decode of native memory cost ~33 ms for a 4 MB table under Wine (the call itself ~5 ms);
 * a fresh buffer per poll also pays its page faults again. `read` is valid until the next call.
 */
export class ReusedBuffer implements QueryMemory {
  readonly buffer: Buffer;
  constructor(readonly size: number) {
    this.buffer = Buffer.alloc(Math.max(1, size));
  }
  read(length = this.size): Buffer {
    return this.buffer.subarray(0, Math.max(0, Math.min(length, this.size)));
  }
  free(): void {}
}

const MAX_BYTES = 512 * 1024 * 1024;
const MAX_ATTEMPTS = 12;

/** The answer did not fit: each query says so with one of these three. */
export function isTooSmall(status: number): boolean {
  return status === STATUS_INFO_LENGTH_MISMATCH || status === STATUS_BUFFER_TOO_SMALL || status === STATUS_BUFFER_OVERFLOW;
}

export class GrowingQuery<M extends QueryMemory> {
  private memory: M | undefined;

  constructor(
    private readonly api: string,
    private readonly allocate: (size: number) => M,
    private initialBytes: number,
  ) {}

  /** Runs `call` until it fits; throws NtStatusError on any other failure. */
  run(call: (memory: M) => { status: number; returnLength: number }): GrowResult<M> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      this.memory ??= this.allocate(this.initialBytes);
      const { status, returnLength } = call(this.memory);
      if (ntSuccess(status) && status !== STATUS_BUFFER_OVERFLOW) {
        const valid = returnLength > 0 && returnLength <= this.memory.size ? returnLength : this.memory.size;
        return { bytes: this.memory.read(valid), memory: this.memory };
      }
      if (!isTooSmall(status)) throw new NtStatusError(this.api, status);
      // Grow past what was asked: the table keeps growing while we allocate.
      const next = Math.max(this.memory.size * 2, Math.ceil(returnLength * 1.5) + 64 * 1024);
      if (next > MAX_BYTES) break;
      this.memory.free();
      this.memory = undefined;
      this.initialBytes = next;
    }
    throw new NtStatusError(this.api, STATUS_INFO_LENGTH_MISMATCH);
  }

  /** Bytes the next call gets at least: the memory is replaced now, outside any poll, if smaller. */
  reserve(bytes: number): void {
    if (bytes <= (this.memory?.size ?? this.initialBytes)) return;
    this.memory?.free();
    this.initialBytes = bytes;
    this.memory = this.allocate(bytes);
  }

  /** The size of the memory the next call gets. */
  get size(): number {
    return this.memory?.size ?? this.initialBytes;
  }

  dispose(): void {
    this.memory?.free();
    this.memory = undefined;
  }
}

// Calls a size-probing NT query until its answer fits, keeping the buffer between calls so a
// steady-state poll allocates nothing. The handle table can grow between the sizing call and the
// real one: STATUS_INFO_LENGTH_MISMATCH then means "grow and ask again", with headroom.
import { NtStatusError, ntSuccess, STATUS_BUFFER_OVERFLOW, STATUS_BUFFER_TOO_SMALL, STATUS_INFO_LENGTH_MISMATCH } from './win-errors.js';

export interface QueryMemory {
  readonly size: number;
  readonly address: bigint;
  read(length?: number): Buffer;
  free(): void;
}

export interface GrowResult {
  bytes: Buffer;
  /** Where `bytes` sat in memory when filled (self-pointers are resolved against it). */
  base: bigint;
}

const MAX_BYTES = 512 * 1024 * 1024;
const MAX_ATTEMPTS = 12;

function isTooSmall(status: number): boolean {
  return status === STATUS_INFO_LENGTH_MISMATCH || status === STATUS_BUFFER_TOO_SMALL || status === STATUS_BUFFER_OVERFLOW;
}

export class GrowingQuery {
  private memory: QueryMemory | undefined;

  constructor(
    private readonly api: string,
    private readonly allocate: (size: number) => QueryMemory,
    private initialBytes: number,
  ) {}

  /** Runs `call` until it fits; throws NtStatusError on any other failure. */
  run(call: (memory: QueryMemory) => { status: number; returnLength: number }): GrowResult {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      this.memory ??= this.allocate(this.initialBytes);
      const { status, returnLength } = call(this.memory);
      if (ntSuccess(status) && status !== STATUS_BUFFER_OVERFLOW) {
        const valid = returnLength > 0 && returnLength <= this.memory.size ? returnLength : this.memory.size;
        return { bytes: this.memory.read(valid), base: this.memory.address };
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

  dispose(): void {
    this.memory?.free();
    this.memory = undefined;
  }
}

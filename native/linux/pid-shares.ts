// A walk's pids, dealt into one share per thread, in a SharedArrayBuffer. Each thread walks its own
// share first (where its kind cache knows the fds), then helps with what is left of the others':
// a thread the scheduler starves on a busy machine then delays the poll by one process, not by its
// whole share. Each share has one atomic cursor, so a pid is walked exactly once.

// Layout (Int32): [shareCount, then per share: offset, length, cursor, then the pids].
const PER_SHARE = 3;

export function sharePids(shares: readonly (readonly number[])[]): SharedArrayBuffer {
  const header = 1 + PER_SHARE * shares.length;
  const total = header + shares.reduce((n, s) => n + s.length, 0);
  const view = new Int32Array(new SharedArrayBuffer(total * Int32Array.BYTES_PER_ELEMENT));
  view[0] = shares.length;
  let offset = header;
  shares.forEach((share, i) => {
    view.set([offset, share.length, 0], 1 + PER_SHARE * i);
    view.set(share, offset);
    offset += share.length;
  });
  return view.buffer;
}

export class PidShares {
  private readonly view: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.view = new Int32Array(buffer);
  }

  get count(): number {
    return this.view[0]!;
  }

  /** Every pid of share `i`, claimed or not. */
  share(i: number): number[] {
    const [offset, length] = this.slot(i);
    return Array.from(this.view.subarray(offset, offset + length));
  }

  /** The next unclaimed pid of share `i`, or undefined once all are claimed. */
  claim(i: number): number | undefined {
    const [offset, length] = this.slot(i);
    const index = Atomics.add(this.view, 1 + PER_SHARE * i + 2, 1);
    return index < length ? this.view[offset + index] : undefined;
  }

  /** Claims share `own` to the end, then the others in turn. */
  *claimAll(own: number): Generator<number> {
    for (let k = 0; k < this.count; k++) {
      const i = (own + k) % this.count;
      for (let pid = this.claim(i); pid !== undefined; pid = this.claim(i)) yield pid;
    }
  }

  private slot(i: number): [offset: number, length: number] {
    const base = 1 + PER_SHARE * i;
    return [this.view[base]!, this.view[base + 1]!];
  }
}

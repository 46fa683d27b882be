// A walk's pids, dealt into one share per thread, in a SharedArrayBuffer. Each thread walks its own
// share first (where its kind cache knows the fds), then helps with what is left of the others':
// a thread the scheduler starves on a busy machine then delays the poll by one process, not by its
// whole share. Each share has one atomic cursor, so a pid is walked exactly once.
// A worker still booting when the calling thread has walked everything has nothing to add: the
// caller closes the walk, and a worker that joins after that answers at once with nothing (a cold
// worker's boot, 60-120 ms, was the whole of a short run's final scan).

// Layout (Int32): [shareCount, helpers, then per share: offset, length, cursor, then the pids].
// helpers: how many worker threads joined the walk; once the caller closed it, -(joined + 1).
const PER_SHARE = 3;
const HEADER = 2;
const HELPERS = 1;
const closed = (joined: number) => -(joined + 1);

export function sharePids(shares: readonly (readonly number[])[]): SharedArrayBuffer {
  const header = HEADER + PER_SHARE * shares.length;
  const total = header + shares.reduce((n, s) => n + s.length, 0);
  const view = new Int32Array(new SharedArrayBuffer(total * Int32Array.BYTES_PER_ELEMENT));
  view[0] = shares.length;
  let offset = header;
  shares.forEach((share, i) => {
    view.set([offset, share.length, 0], HEADER + PER_SHARE * i);
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
    const index = Atomics.add(this.view, HEADER + PER_SHARE * i + 2, 1);
    return index < length ? this.view[offset + index] : undefined;
  }

  /** Claims share `own` to the end, then the others in turn. */
  *claimAll(own: number): Generator<number> {
    for (let k = 0; k < this.count; k++) {
      const i = (own + k) % this.count;
      for (let pid = this.claim(i); pid !== undefined; pid = this.claim(i)) yield pid;
    }
  }

  /** A worker thread's first step: false once the walk is closed (done without it): it must not claim. */
  join(): boolean {
    for (;;) {
      const helpers = Atomics.load(this.view, HELPERS);
      if (helpers < 0) return false;
      if (Atomics.compareExchange(this.view, HELPERS, helpers, helpers + 1) === helpers) return true;
    }
  }

  /**
   * The calling thread, after its claimAll: closes the walk to workers that have not joined yet and
   * returns how many did. Only their answers are part of the walk; the others will answer with nothing.
   */
  close(): number {
    for (;;) {
      const helpers = Atomics.load(this.view, HELPERS);
      if (Atomics.compareExchange(this.view, HELPERS, helpers, closed(helpers)) === helpers) return helpers;
    }
  }

  private slot(i: number): [offset: number, length: number] {
    const base = HEADER + PER_SHARE * i;
    return [this.view[base]!, this.view[base + 1]!];
  }
}

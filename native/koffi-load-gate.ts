// Node aborts the whole process (FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw) when a
// worker thread is terminated while koffi loads in it: its addon's init and its bindings throw into an
// environment that is stopping. A gate in memory both threads share lets them agree: the worker loads
// koffi only while nobody is ending it, and whoever ends it first waits out a load under way. Both
// threads that load it use one: the Linux walk thread (linux/scan-pool.ts) and the thread of a
// ThreadedHolderSource (threaded/), Windows' scans off the owning thread.
const OPEN = 0;
const LOADING = 1;
const LOADED = 2;
const CLOSED = 3;

// Atomics.waitAsync (ES2024; Node 16+, Electron) is past the lib this project compiles against.
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

export class KoffiLoadGate {
  private readonly state: Int32Array;

  private constructor(readonly shared: SharedArrayBuffer) {
    this.state = new Int32Array(shared);
  }

  /** A gate for a worker about to start: pass `shared` in its workerData. */
  static create(): KoffiLoadGate {
    return new KoffiLoadGate(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  }

  /** The worker's side of a gate its starter made. */
  static of(shared: SharedArrayBuffer): KoffiLoadGate {
    return new KoffiLoadGate(shared);
  }

  /** In the worker: runs `load` unless the thread is being ended (then null). */
  load<T>(load: () => T): T | null {
    if (Atomics.compareExchange(this.state, 0, OPEN, LOADING) !== OPEN) return null;
    try {
      return load();
    } finally {
      Atomics.store(this.state, 0, LOADED);
      Atomics.notify(this.state, 0);
    }
  }

  /** Before ending the worker: no load starts from now on; resolves once none is under way. */
  async close(): Promise<void> {
    if (Atomics.compareExchange(this.state, 0, OPEN, CLOSED) !== LOADING) return;
    const wait = waitAsync(this.state, 0, LOADING);
    if (wait.async) await wait.value;
  }
}

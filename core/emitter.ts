// A minimal typed event emitter for the session's streams: listeners never break the emitter.
export class Emitter<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  on(listener: (...args: A) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(...args: A): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch {
        // A failing front end (a closed socket) must not stop the others or the watch.
      }
    }
  }
}

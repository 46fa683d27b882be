// A minimal typed event emitter for the session's streams. A listener that throws (a front end whose socket
// just closed) must not stop the others or the watch, and must not vanish either: its error goes to the
// handler the owner injects.
export class Emitter<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  on(listener: (...args: A) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(...args: A): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}

// Runs async tasks one at a time, in the order given. A task's failure goes to its own caller (and to
// `onError` when given), never to the tasks after it.

export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(this.onError);
    return result;
  }

  /** Waits until every task, including ones queued meanwhile, has run. */
  async drain(): Promise<void> {
    let seen: Promise<unknown>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }
}

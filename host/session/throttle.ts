// Calls `fn` at most every `periodMs`, or at once when poked urgently: how a run's whole record is
// sent to the UI (each failure and the end at once, the rest batched).
export class Throttle {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly periodMs: number,
    private readonly fn: () => void,
  ) {}

  poke(urgent: boolean): void {
    if (urgent) {
      this.dispose();
      this.fn();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.fn();
    }, this.periodMs);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

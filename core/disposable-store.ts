import { messageOf } from './errors.js';

// One owner for many resources. Each is released once, the last added first (it may use the ones before
// it), and a release that throws does not stop the rest: every failure is collected and thrown together at
// the end, so a second leak never hides behind the first error (VS Code's DisposableStore, made async).

/** Anything with a release, synchronous or not. */
export interface Disposable {
  dispose(): unknown;
}

export interface DisposableStoreOptions {
  /** Called with a release's label just before it runs: a caller that must say where a stop hangs. */
  onReleasing?: (label: string) => void;
  /**
   * A resource added after dispose() began is released at once; its failure has no dispose() to throw
   * from, so it goes here (default: an unhandled rejection, never silence).
   */
  onLateError?: (error: unknown) => void;
}

interface Release {
  label: string | undefined;
  run: () => unknown;
}

export class DisposableStore implements Disposable {
  private readonly releases: Release[] = [];
  private disposing: Promise<void> | null = null;

  constructor(private readonly options: DisposableStoreOptions = {}) {}

  get isDisposed(): boolean {
    return this.disposing !== null;
  }

  /** Owns `resource` from now on; returns it, so `const x = store.add(open())` reads as one step. */
  add<T extends Disposable>(resource: T, label?: string): T {
    this.defer(() => resource.dispose(), label);
    return resource;
  }

  /** Owns a release that is not a dispose() (a close(), an unsubscribe, a marker to remove). */
  defer(release: () => unknown, label?: string): void {
    if (!this.disposing) {
      this.releases.push({ label, run: release });
      return;
    }
    const late = Promise.resolve().then(release);
    if (this.options.onLateError) late.catch(this.options.onLateError);
  }

  /** Releases everything, last added first; idempotent. Rejects with an AggregateError of every failure. */
  dispose(): Promise<void> {
    this.disposing ??= this.releaseAll();
    return this.disposing;
  }

  private async releaseAll(): Promise<void> {
    const errors: unknown[] = [];
    for (const { label, run } of this.releases.splice(0).reverse()) {
      try {
        if (label !== undefined) this.options.onReleasing?.(label);
        await run();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} release(s) failed: ${errors.map(messageOf).join('; ')}`);
  }
}

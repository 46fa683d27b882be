// The command's output on its way to the user, apart from the run that reads it (supervised-run.ts).
import type { RunIo } from './supervised-run.js';
import { elapsedMs } from '../system-clock.js';

/** How long the pipes may stay quiet after the command exited before holdwatch stops reading them. */
const QUIET_AFTER_EXIT_MS = 100;

/**
 * The command's two output streams on their way to the user: paused while the user's side is full,
 * and read to their end once the command exits. A detached grandchild may keep the pipes open forever,
 * so once the command is gone they are let go after QUIET_AFTER_EXIT_MS without data, but never while
 * output still waits for a slow reader (that would drop it).
 */
export class OutputStreams {
  private waiting = 0;
  private lastDataAtMs: number;
  private readonly open = new Set<NodeJS.ReadableStream & { destroy(): void }>();
  /** drained()'s check, run again as each stream ends. */
  private onEnded: (() => void) | null = null;

  constructor(
    private readonly io: RunIo,
    private readonly stdout: NodeJS.ReadableStream & { destroy(): void },
    private readonly stderr: NodeJS.ReadableStream & { destroy(): void },
    /** Monotonic ms: how long the output has been quiet. */
    private readonly now: () => number = elapsedMs,
  ) {
    this.lastDataAtMs = now();
    for (const stream of [stdout, stderr]) {
      this.open.add(stream);
      const ended = () => {
        this.open.delete(stream);
        this.onEnded?.();
      };
      stream.once('end', ended);
      stream.once('close', ended);
    }
  }

  pass(which: 'stdout' | 'stderr', chunk: Buffer): void {
    this.lastDataAtMs = this.now();
    // A caller's `(s, c) => list.push(c)` returns a number, which a `void` type lets through: only a promise waits.
    const later: unknown = this.io.output(which, chunk);
    if (!(later instanceof Promise)) return;
    const stream = which === 'stdout' ? this.stdout : this.stderr;
    stream.pause();
    this.waiting++;
    void later.finally(() => {
      this.waiting--;
      this.lastDataAtMs = this.now();
      stream.resume();
    });
  }

  /**
   * Resolves once both streams ended, or went quiet with nothing waiting for the reader. The command's
   * exit often comes before its pipes' ends, a few microseconds apart: the last end settles it then,
   * not the next look of the quiet timer.
   */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        clearTimeout(timer);
        const quiet = this.waiting === 0 && this.now() - this.lastDataAtMs >= QUIET_AFTER_EXIT_MS;
        if (this.open.size > 0 && !quiet) return void (timer = setTimeout(check, QUIET_AFTER_EXIT_MS / 4));
        this.onEnded = null;
        this.stdout.destroy();
        this.stderr.destroy();
        resolve();
      };
      this.onEnded = check;
      check();
    });
  }
}

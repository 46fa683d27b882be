// One warm in-process poll of the watcher, as `holdwatch watch` runs it: the real LinuxHolderSource
// with its walk thread, and the real Watcher (its diff included). The polls before the timed ones warm
// the JIT, the walk thread and what it remembers of each process.
import { performance } from 'node:perf_hooks';
import { Watcher } from '../core/watch.js';
import { LinuxHolderSource } from '../native/linux/linux-holder-source.js';
import { systemClock } from '../host/system-clock.js';
import type { WalkThread } from '../native/linux/scan-pool.js';
import type { Measurement } from './measurement.js';

// The first walk on a thread reads with Node's fs and the second loads libc; the third is steady.
const WARM_UP_POLLS = 3;

export class WarmPoller {
  private readonly samplesMs: number[] = [];
  private readonly cpuSamplesMs: number[] = [];

  private constructor(
    readonly tool: string,
    private readonly source: LinuxHolderSource,
    private readonly watcher: Watcher,
  ) {}

  static async open(tool: string, dirInput: string, walkThread: WalkThread): Promise<WarmPoller> {
    const source = new LinuxHolderSource({ walkThread });
    try {
      const dir = await source.resolveWatchDir(dirInput);
      const watcher = new Watcher({ source, dirs: [dir], clock: systemClock, fullIntervalMs: 60_000, onPoll: () => undefined, onError: () => undefined });
      await source.whenThreadsOnline();
      for (let i = 0; i < WARM_UP_POLLS; i++) await watcher.scanNow();
      return new WarmPoller(tool, source, watcher);
    } catch (error) {
      await source.dispose();
      throw error;
    }
  }

  /** One timed poll; CPU time counts every thread of this process (the walk's workers included). */
  async poll(): Promise<void> {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await this.watcher.scanNow();
    this.samplesMs.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    this.cpuSamplesMs.push((used.user + used.system) / 1000);
  }

  measurement(): Measurement {
    return { tool: this.tool, samplesMs: [...this.samplesMs], cpuSamplesMs: [...this.cpuSamplesMs], pids: new Set(this.watcher.current().map((h) => h.pid)) };
  }

  async dispose(): Promise<void> {
    this.watcher.dispose();
    await this.source.dispose();
  }
}

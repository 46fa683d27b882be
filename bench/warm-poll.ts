// One warm in-process poll of the watcher, as `holdwatch watch` runs it: the real LinuxHolderSource
// with its worker threads, and the real Watcher (its diff included). The first poll warms the JIT,
// the worker threads and the caches; the timed polls come after it.
import { performance } from 'node:perf_hooks';
import { Watcher } from '../core/watch.js';
import { LinuxHolderSource } from '../native/linux/linux-holder-source.js';
import { systemClock } from '../host/system-clock.js';
import type { Measurement } from './measurement.js';

export class WarmPoller {
  private readonly samplesMs: number[] = [];
  private readonly cpuSamplesMs: number[] = [];

  private constructor(
    readonly tool: string,
    private readonly source: LinuxHolderSource,
    private readonly watcher: Watcher,
  ) {}

  static async open(tool: string, dirInput: string, threads: number): Promise<WarmPoller> {
    const source = new LinuxHolderSource({ threads });
    try {
      const dir = await source.resolveWatchDir(dirInput);
      const watcher = new Watcher({ source, dirs: [dir], clock: systemClock, fullIntervalMs: 60_000, onPoll: () => undefined, onError: () => undefined });
      await watcher.scanNow();
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

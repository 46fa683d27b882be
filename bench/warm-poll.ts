// One warm in-process poll of the watcher, as `holdwatch watch` runs it: the real LinuxHolderSource
// with its worker threads, and the real Watcher (its diff included). The first poll warms the JIT,
// the worker threads and the caches; the timed polls come after it.
import { performance } from 'node:perf_hooks';
import { Watcher } from '../core/watch.js';
import { LinuxHolderSource } from '../native/linux/linux-holder-source.js';
import { systemClock } from '../cli/system.js';
import type { Measurement } from './measurement.js';

export async function measureWarmPoll(tool: string, dirInput: string, threads: number, runs: number): Promise<Measurement> {
  const source = new LinuxHolderSource({ threads });
  let watcher: Watcher | undefined;
  try {
    const dir = await source.resolveWatchDir(dirInput);
    watcher = new Watcher({
      source,
      dirs: [dir],
      clock: systemClock,
      fullIntervalMs: 60_000,
      onPoll: () => undefined,
      onError: () => undefined,
    });
    await watcher.scanNow();
    const samplesMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await watcher.scanNow();
      samplesMs.push(performance.now() - started);
    }
    return { tool, samplesMs, pids: new Set(watcher.current().map((h) => h.pid)) };
  } finally {
    watcher?.dispose();
    await source.dispose();
  }
}

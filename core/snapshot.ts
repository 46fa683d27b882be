// One scan, as the contract's Snapshot: what `holdwatch scan --json` prints.
import type { Holder, Snapshot } from '../contract/holders.js';
import type { Clock } from './clock.js';
import type { HolderSource, ScanRequest, WatchDir } from './platform.js';

/** One scan of `dir`; `request` narrows what is scanned (the scan options that ask something of the backend). */
export async function takeSnapshot(
  source: HolderSource,
  dir: WatchDir,
  clock: Pick<Clock, 'now'>,
  elapsedMs: () => number,
  request: Omit<ScanRequest, 'dirs'> = {},
): Promise<Snapshot> {
  const started = elapsedMs();
  const result = await source.scan({ ...request, dirs: [dir] });
  const ms = Math.round((elapsedMs() - started) * 10) / 10;
  return {
    dir: dir.display,
    platform: source.platform,
    scannedAt: new Date(clock.now()).toISOString(),
    holders: sortHolders(result.holders),
    denied: [...result.denied].sort((a, b) => a.pid - b.pid),
    ...(result.unnamed.length > 0 ? { unnamed: result.unnamed } : {}),
    stats: { processes: result.processCount, handles: result.handleCount, ms },
  };
}

/** Stable order for people and diffs: by path, then pid, then kind. */
export function sortHolders(holders: readonly Holder[]): Holder[] {
  return [...holders].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.pid - b.pid || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)));
}

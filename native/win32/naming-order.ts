// The order handles are named in: the ones whose name query may hang last. A query hangs on a
// synchronous pipe with a read pending (NtQueryObject waits for the file object's lock), and such
// pipes are opened with a few access masks, the classic one 0x0012019F (read/write, SYNCHRONIZE):
// tools that skip it miss every file opened for reading and writing, so they are asked, only after the
// rest. A hang then costs the handles behind it nothing, and a scan that runs out of time is missing
// pipes, not the files under the watched dir.
import type { HandleEntry } from './handle-table.js';

/** Access masks of the synchronous pipe and console handles whose name queries are seen to hang. */
const HANG_PRONE_ACCESS = new Set([0x0012019f, 0x00120189, 0x001a019f, 0x0016019f, 0x00100000]);

export function mayHang(entry: HandleEntry): boolean {
  return HANG_PRONE_ACCESS.has(entry.grantedAccess);
}

/** `indices` into `entries`, stable, the hang-prone ones moved to the end. */
export function namingOrder(entries: readonly HandleEntry[], indices: readonly number[]): number[] {
  const safe: number[] = [];
  const risky: number[] = [];
  for (const i of indices) (mayHang(entries[i]!) ? risky : safe).push(i);
  return safe.concat(risky);
}

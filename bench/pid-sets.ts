// Compares the PIDs a tool reported with the ones the fixture knows hold something under the dir.
import type { FixtureHolder, HolderRole } from './fixture.js';

export interface PidComparison {
  found: number;
  /** Expected holders the tool did not report. */
  missing: FixtureHolder[];
  /** Reported pids that hold nothing under the dir (noise holders of "<dir>-other", strangers). */
  extra: { pid: number; role: HolderRole | 'unknown' }[];
}

/** Roles that really hold something under the watched dir; `noise` holds only the sibling. */
export function expectedHolders(holders: readonly FixtureHolder[]): FixtureHolder[] {
  return holders.filter((h) => h.role !== 'noise');
}

export function comparePids(reported: ReadonlySet<number>, holders: readonly FixtureHolder[]): PidComparison {
  const roleOf = new Map(holders.map((h) => [h.pid, h.role] as const));
  const missing = expectedHolders(holders).filter((h) => !reported.has(h.pid));
  const extra = [...reported]
    .filter((pid) => roleOf.get(pid) === undefined || roleOf.get(pid) === 'noise')
    .sort((a, b) => a - b)
    .map((pid) => ({ pid, role: roleOf.get(pid) ?? ('unknown' as const) }));
  return { found: reported.size, missing, extra };
}

/** True when every pid of `subset` is in `superset`; `ignore` drops known false positives first. */
export function isSuperset(superset: ReadonlySet<number>, subset: ReadonlySet<number>, ignore: ReadonlySet<number> = new Set()): boolean {
  for (const pid of subset) if (!ignore.has(pid) && !superset.has(pid)) return false;
  return true;
}

/** `unlinked 1234, mmap 1240` — roles first, since the reader cares what kind of holder was missed. */
export function describeHolders(holders: readonly { pid: number; role: string }[], limit = 4): string {
  if (holders.length === 0) return 'none';
  const byRole = new Map<string, number[]>();
  for (const h of holders) byRole.set(h.role, [...(byRole.get(h.role) ?? []), h.pid]);
  const parts = [...byRole].map(([role, pids]) => (pids.length <= limit ? `${role} ${pids.join(' ')}` : `${role} x${pids.length}`));
  return parts.join(', ');
}

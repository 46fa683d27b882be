import { describe, expect, it } from 'vitest';
import type { Holder } from './holders.js';
import { foldTransient, parentOf } from './transient.js';

interface Item {
  holder: Holder;
  attribution: { verdict: 'in-run' | 'blocked-cleanup' | 'leaked-past-test' | 'outside-run'; lastSeenAt: string };
}

const at = (s: number) => new Date(Date.UTC(2026, 11, 2, 12, 0, s)).toISOString();
const item = (pid: number, path: string, lastSeenS: number, verdict: Item['attribution']['verdict'] = 'in-run', kind: Holder['kind'] = 'file'): Item => ({
  holder: { pid, processStartedAtMs: 1, processName: 'sh', path, kind } as Holder,
  attribution: { verdict, lastSeenAt: at(lastSeenS) },
});
const fold = (items: Item[], ended = true, blocker: (i: Item) => boolean = () => false) => foldTransient(items, (i) => i, blocker, ended);

describe('foldTransient', () => {
  it('folds three or more short-lived files of one process in one folder, and nothing else', () => {
    const items = [
      item(1, '/w/a/f1', 1),
      item(1, '/w/a/f2', 2),
      item(1, '/w/a/f3', 3),
      item(1, '/w/b/g1', 1), // another folder: alone
      item(2, '/w/a/f4', 1), // another process: alone
      item(1, '/w/a/dir', 2, 'in-run', 'dir'), // not a file
      item(1, '/w/a/leak', 2, 'leaked-past-test'),
      item(1, '/w/a/held', 9), // seen in the final scan: open at the end
    ];
    const { kept, groups } = fold(items);
    expect(groups.map((g) => [g.pid, g.dir, g.members.map((m) => m.holder.path)])).toEqual([[1, '/w/a', ['/w/a/f1', '/w/a/f2', '/w/a/f3']]]);
    expect(kept.map((k) => k.holder.path).sort()).toEqual(['/w/a/dir', '/w/a/f4', '/w/a/held', '/w/a/leak', '/w/b/g1']);
  });

  it('never folds a blocker, and folds fewer than three not at all', () => {
    const items = [item(1, '/w/f1', 1), item(1, '/w/f2', 2), item(1, '/w/f3', 3), item(1, '/w/end', 4)];
    expect(fold(items, true, (i) => i.holder.path === '/w/f2').groups).toEqual([]);
  });

  it('while the run goes (no final scan yet), the latest sighting is no reason to keep one out', () => {
    const items = [item(1, '/w/f1', 1), item(1, '/w/f2', 2), item(1, '/w/f3', 3)];
    expect(fold(items, false).groups[0]!.members).toHaveLength(3);
    expect(fold(items, true).groups).toEqual([]); // f3 is the latest: held at the end, leaving two
  });

  it('takes the folder of POSIX and Windows paths', () => {
    expect([parentOf('/w/a/f'), parentOf('C:\\w\\f'), parentOf('/f'), parentOf('f')]).toEqual(['/w/a', 'C:\\w', '/', '']);
  });
});

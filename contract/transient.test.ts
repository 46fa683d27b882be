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

  it("folds a forked command's file into its parent's group: a loop's `sleep > f3` met only in the sleep", () => {
    const child = (pid: number, ppid: number, path: string, s: number, startedAt = 5): Item => {
      const i = item(pid, path, s);
      return { ...i, holder: { ...i.holder, ppid, processStartedAtMs: startedAt } };
    };
    const items = [child(1, 0, '/w/f1', 1, 1), child(1, 0, '/w/f2', 2, 1), child(7, 1, '/w/f3', 3), child(8, 7, '/w/f4', 4), child(1, 0, '/w/f5', 5, 1)];
    const { kept, groups } = fold([...items, item(9, '/w/end', 9)]);
    expect(groups.map((g) => [g.pid, g.members.map((m) => m.holder.path)])).toEqual([[1, ['/w/f1', '/w/f2', '/w/f5', '/w/f3', '/w/f4']]]);
    expect(kept.map((k) => k.holder.path)).toEqual(['/w/end']);
    // A pid reused by a process older than the child is not its parent.
    const reused = [child(1, 0, '/w/f1', 1, 10), child(1, 0, '/w/f2', 2, 10), child(1, 0, '/w/f5', 5, 10), child(7, 1, '/w/f3', 3)];
    expect(fold([...reused, item(9, '/w/end', 9)]).groups.map((g) => g.members.length)).toEqual([3]);
  });

  it('counts files, not handles: a file seen at two fds of one process is one file', () => {
    // A shell's `sleep > f` opens f at a free fd, then moves it to fd 1: a scan between sees both.
    const at2 = (pid: number, path: string, s: number, handle: string): Item => {
      const i = item(pid, path, s);
      return { ...i, holder: { ...i.holder, handle } };
    };
    const files = ['/w/f1', '/w/f2', '/w/f3'].map((path, s) => at2(1, path, s, 'fd 1'));
    const { groups } = fold([...files, at2(1, '/w/f2', 1, 'fd 3'), item(9, '/w/end', 9)]);
    expect(groups.map((g) => [g.members.length, g.files])).toEqual([[4, 3]]);
    // Two files at two fds each are two files: fewer than three, not folded.
    const two = [at2(1, '/w/f1', 1, 'fd 1'), at2(1, '/w/f1', 1, 'fd 3'), at2(1, '/w/f2', 2, 'fd 1'), at2(1, '/w/f2', 2, 'fd 3')];
    expect(fold([...two, item(9, '/w/end', 9)]).groups).toEqual([]);
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

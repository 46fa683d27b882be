// The bookkeeping behind "same pid as last poll means same process": a held pid is opened once,
// closed when it leaves a system-wide table, kept by restricted scans; denied pids are retried on a
// cadence; names the handle cannot give come from one process list. The OS side is faked here
// (this runs on Linux); the Wine suite runs the real one.
import { describe, expect, it } from 'vitest';
import { ProcessIdentities, type IdentityOs } from './process-identities.js';
import type { ProcessHandle } from './win-types.js';

function fakeOs(deniedPids: Set<number>) {
  const opened: number[] = [];
  const closed: bigint[] = [];
  let lists = 0;
  const os: IdentityOs = {
    open(pid) {
      if (deniedPids.has(pid)) throw new Error('OpenProcess failed: error 5 ERROR_ACCESS_DENIED');
      opened.push(pid);
      return {
        handle: BigInt(1000 + pid) as ProcessHandle,
        createTime: BigInt(pid * 10),
        ppid: 1,
        imagePath: pid === 4 ? '' : `C:\\bin\\p${pid}.exe`,
        protection: null,
      };
    },
    close(handle) {
      closed.push(handle);
    },
    list() {
      lists++;
      return [
        { pid: 4, ppid: 0, createTime: 1n, imageName: 'System' },
        { pid: 9, ppid: 4, createTime: 90n, imageName: 'secret.exe' },
      ];
    },
  };
  return { os, opened, closed, lists: () => lists };
}

describe('ProcessIdentities', () => {
  it('opens a pid once, keeps it while it is in the table, closes it when it leaves', () => {
    const fake = fakeOs(new Set());
    const ids = new ProcessIdentities(fake.os);
    ids.sync([10, 11], true);
    ids.sync([10, 11], true);
    expect(fake.opened).toEqual([10, 11]);
    expect(ids.get(10)).toMatchObject({ pid: 10, createTime: 100n, imageName: 'p10.exe', denied: null });
    const version = ids.version;
    ids.sync([11, 12], true);
    expect(fake.closed).toEqual([1010n]);
    expect(ids.get(10)).toBeUndefined();
    expect(ids.version).toBeGreaterThan(version);
    ids.dispose();
    expect(fake.closed.sort()).toEqual([1010n, 1011n, 1012n]);
  });

  it('a restricted scan adds but never drops what it did not look at; forget drops', () => {
    const fake = fakeOs(new Set());
    const ids = new ProcessIdentities(fake.os);
    ids.sync([10, 11], true);
    ids.sync([12], false);
    expect([...ids.values()].map((p) => p.pid).sort()).toEqual([10, 11, 12]);
    ids.forget([11]);
    expect(ids.get(11)).toBeUndefined();
    expect(fake.closed).toEqual([1011n]);
  });

  it('names from one process list only when a handle could not tell them; denied pids retried after the delay', () => {
    const fake = fakeOs(new Set([9]));
    let now = 0;
    const ids = new ProcessIdentities(fake.os, () => now, 5000);
    ids.sync([4, 9, 10], true);
    expect(fake.lists()).toBe(1);
    expect(ids.get(4)?.imageName).toBe('System');
    expect(ids.get(9)).toMatchObject({ imageName: 'secret.exe', createTime: 90n, ppid: 4, denied: expect.stringContaining('ACCESS_DENIED') });
    now = 1000;
    ids.sync([4, 9, 10], true);
    expect(fake.lists()).toBe(1);
    now = 6000;
    ids.sync([4, 9, 10], true);
    expect(fake.lists()).toBe(2); // retried, still denied, named again
    expect(fake.opened).toEqual([4, 10]);
  });
});

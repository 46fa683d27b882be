import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../contract/holders.js';
import type { RawHolding } from './fd-walk.js';
import { HolderReuse } from './holder-reuse.js';

const info = (pid: number, startedAtMs = 1): ProcessInfo => ({ pid, ppid: 1, startedAtMs, name: 'p', exe: null, commandLine: 'p', user: 'u' });
const row = (pid: number, fd: number, path: string): RawHolding => ({
  pid,
  kind: 'file',
  path,
  deleted: false,
  handle: `fd ${fd}`,
  watchedDir: '/w',
  openFlags: null,
});

describe('HolderReuse', () => {
  it('hands back the same objects for unchanged rows and new ones for changed rows', () => {
    const reuse = new HolderReuse();
    const first = reuse.build([row(1, 3, '/w/a'), row(1, 4, '/w/b'), row(2, 3, '/w/c')], (p) => info(p), null);
    const second = reuse.build([row(1, 3, '/w/a'), row(1, 4, '/w/B'), row(2, 3, '/w/c')], (p) => info(p), null);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).not.toBe(first[1]);
    expect(second[1]!.path).toBe('/w/B');
    expect(second[2]).toBe(first[2]);
  });

  it('never reuses across a reused pid (new start time)', () => {
    const reuse = new HolderReuse();
    const [before] = reuse.build([row(1, 3, '/w/a')], (p) => info(p, 1), null);
    const [after] = reuse.build([row(1, 3, '/w/a')], (p) => info(p, 2), null);
    expect(after).not.toBe(before);
    expect(after!.processStartedAtMs).toBe(2);
  });

  it('keeps other processes across a pid-restricted scan and forgets the scanned ones that hold nothing', () => {
    const reuse = new HolderReuse();
    const first = reuse.build([row(1, 3, '/w/a'), row(2, 3, '/w/b')], (p) => info(p), null);
    reuse.build([], (p) => info(p), [1]);
    const full = reuse.build([row(1, 3, '/w/a'), row(2, 3, '/w/b')], (p) => info(p), null);
    expect(full[0]).not.toBe(first[0]); // pid 1 was scanned holding nothing: its old rows are gone
    expect(full[1]).toBe(first[1]);
  });
});

// The table during and after a run: the live rows and the run's record, one row per leak.
import { describe, expect, it } from 'vitest';
import type { Holder } from '../../contract/holders.js';
import { holderKey } from '../../contract/identity.js';
import type { AttributedHolder } from '../../contract/runs.js';
import type { RunRecord } from '../../contract/runs.js';
import { withRunHolders } from './derive.js';
import type { Row } from './rows.js';

const AT = '2026-12-02T17:00:00.000Z';
const holder = (pid: number, startedAt: number): Holder => ({
  pid,
  ppid: 1,
  processStartedAtMs: startedAt,
  processName: pid === 10 ? 'bash' : 'sleep',
  commandLine: 'x',
  user: 'u',
  kind: 'file',
  path: '/w/bats-2/writer-1.log',
  deleted: false,
  handle: 'fd 3',
  watchedDir: '/w',
});
const liveRow = (h: Holder, state: Row['state'] = 'live'): Row => ({ key: holderKey(h), holder: h, attribution: null, sinceMs: 0, state, changedAtMs: 0 });

const parent = holder(10, 1);
const child = holder(11, 2);
const recorded: AttributedHolder = {
  ...parent,
  attribution: { spawnedDuring: 't2', firstSeenDuring: 't2', verdict: 'leaked-past-test', ancestry: [], firstSeenAt: AT, lastSeenAt: AT },
  alsoHeldBy: [{ pid: 11, processName: 'sleep', processStartedAtMs: 2 }],
};
const record = { holders: [recorded], failures: [] } as unknown as RunRecord;

describe('withRunHolders', () => {
  it('shows a child still holding the copy the record folded into its holding parent as that parent’s row', () => {
    const live = new Map([liveRow(parent), liveRow(child)].map((r) => [r.key, r]));
    expect(withRunHolders(live, record).map((r) => [r.holder.pid, r.state])).toEqual([[10, 'live']]);
  });

  it('drops a gone child the run never met holding its parent’s recorded handle, as it drops the recorded ones', () => {
    const unrecorded = { ...holder(12, 3), ppid: 10 };
    const recordedAlone = { holders: [{ ...recorded, alsoHeldBy: [] }], failures: [] } as unknown as RunRecord;
    const live = new Map([liveRow(parent, 'gone'), liveRow(unrecorded, 'gone')].map((r) => [r.key, r]));
    expect(withRunHolders(live, recordedAlone).map((r) => [r.holder.pid, r.state])).toEqual([[10, 'ended']]);
    // Another file under the same fd number is a stranger's row, and fades as such.
    const other = { ...unrecorded, path: '/w/other.log' };
    const withOther = new Map([liveRow(parent, 'gone'), liveRow(other, 'gone')].map((r) => [r.key, r]));
    expect(withRunHolders(withOther, recordedAlone).map((r) => [r.holder.pid, r.state])).toEqual([
      [12, 'gone'],
      [10, 'ended'],
    ]);
  });

  it('shows the child once the parent no longer holds, beside the parent’s ended row', () => {
    const live = new Map([liveRow(parent, 'gone'), liveRow(child)].map((r) => [r.key, r]));
    expect(withRunHolders(live, record).map((r) => [r.holder.pid, r.state])).toEqual([
      [11, 'live'],
      [10, 'ended'],
    ]);
  });
});

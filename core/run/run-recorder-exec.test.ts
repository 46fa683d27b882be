import { describe, expect, it } from 'vitest';
import { holderKey } from '../../contract/identity.js';
import type { JournalEntry, MemberFacts } from '../../contract/journal.js';
import { holderRow } from '../../tests/support/holder-row.js';
import { replayedRun } from '../../tests/support/recorder-journal.js';

const T0 = Date.UTC(2026, 11, 5, 9, 0, 0);
const shell = { pid: 10, name: 'sh', commandLine: "sh -c 'pwd; sleep 1'" };
// The shell's child met between fork and exec: its own entry still names the shell.
const forked = holderRow(11, '/w', { kind: 'cwd', handle: null, ppid: 10, processName: 'sh', commandLine: shell.commandLine, processStartedAtMs: T0 + 5 });
const execd = { ...forked, processName: 'sleep', commandLine: 'sleep 1' };
const parentRow = holderRow(10, '/w', { kind: 'cwd', handle: null, processName: 'sh', commandLine: shell.commandLine, processStartedAtMs: T0 });

function entries(childMember: MemberFacts): JournalEntry[] {
  return [
    { t: 'appeared', atMs: T0 + 10, key: holderKey(parentRow), holder: parentRow, member: { ancestry: [shell], byTagOnly: false } },
    { t: 'appeared', atMs: T0 + 10, key: holderKey(forked), holder: forked, member: childMember },
    { t: 'changed', atMs: T0 + 20, key: holderKey(execd), holder: execd },
  ];
}

describe('a holder whose process exec’d after it was first seen', () => {
  it('is one row named as it runs now, in the holder and its own ancestry entry', () => {
    const childMember = { ancestry: [{ pid: 11, name: 'sh', commandLine: shell.commandLine }, shell], byTagOnly: false };
    const recorder = replayedRun(T0, entries(childMember), ['sh', '-c', 'pwd; sleep 1']);
    const child = recorder.attributedHolder(holderKey(execd));
    expect(child).toMatchObject({ processName: 'sleep', commandLine: 'sleep 1' });
    expect(child?.attribution.ancestry).toEqual([{ pid: 11, name: 'sleep', commandLine: 'sleep 1' }, shell]);
    // The journal's own entry is left as it was written.
    expect(childMember.ancestry[0]?.name).toBe('sh');
  });

  it("folds into its parent's row under its new name (the shell's child that inherited its cwd)", () => {
    const childMember = { ancestry: [{ pid: 11, name: 'sh', commandLine: shell.commandLine }, shell], byTagOnly: false };
    const rows = replayedRun(T0, entries(childMember), ['sh', '-c', 'pwd; sleep 1']).record().holders;
    expect(rows.map((h) => [h.pid, h.processName, h.alsoHeldBy?.map((a) => a.processName)])).toEqual([[10, 'sh', ['sleep']]]);
  });
});

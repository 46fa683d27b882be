import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../contract/holders.js';
import type { ProcessBrief, ProcessSource } from '../platform.js';
import { RUN_TAG_VARIABLE, RunMembership } from './membership.js';
import { holderRow } from '../../tests/support/holder-row.js';

const AT = '2026-12-05T09:00:00.000Z';

/** A fixed process table; each environment read is recorded. */
class TableSource implements ProcessSource {
  readonly tagReads: number[] = [];
  constructor(
    private readonly table: ProcessBrief[],
    private readonly tagged: ReadonlySet<number>,
  ) {}
  async listProcesses(): Promise<ProcessBrief[]> {
    return this.table;
  }
  async processInfo(pid: number): Promise<ProcessInfo | null> {
    const p = this.table.find((b) => b.pid === pid);
    return p ? { pid, ppid: p.ppid, startedAtMs: p.startedAtMs, name: p.name, exe: null, commandLine: p.name, user: null } : null;
  }
  async readEnvironmentVariable(pid: number, name: string): Promise<string | null> {
    if (name !== RUN_TAG_VARIABLE) return null;
    this.tagReads.push(pid);
    return this.tagged.has(pid) ? 'run-1' : null;
  }
}

describe('RunMembership', () => {
  it("reads the run tag only of processes that started no earlier than the command: an older one's environment predates the run", async () => {
    const source = new TableSource(
      [
        { pid: 1, ppid: 0, startedAtMs: 0, name: 'init' },
        { pid: 40, ppid: 1, startedAtMs: 500, name: 'editor' },
        { pid: 100, ppid: 1, startedAtMs: 1000, name: 'pytest' },
        { pid: 101, ppid: 100, startedAtMs: 1010, name: 'worker' },
        { pid: 120, ppid: 1, startedAtMs: 1500, name: 'detached' },
        { pid: 130, ppid: 1, startedAtMs: 1600, name: 'indexer' },
      ],
      new Set([120]),
    );
    const membership = new RunMembership(source, 'run-1', 100);
    await membership.refresh();
    expect(membership.pids().sort((a, b) => a - b)).toEqual([100, 101, 120]);
    expect(membership.memberOf(120, 1500)?.byTagOnly).toBe(true);
    expect(source.tagReads.sort((a, b) => a - b)).toEqual([120, 130]);
  });

  it("names a member that exec'd by what it runs now; what was recorded of it before stays", async () => {
    const table: ProcessBrief[] = [
      { pid: 100, ppid: 1, startedAtMs: 1000, name: 'sh' },
      { pid: 101, ppid: 100, startedAtMs: 1010, name: 'sh' },
    ];
    const membership = new RunMembership(new TableSource(table, new Set()), 'run-1', 100);
    const forked = holderRow(101, '/w/a', { ppid: 100, processStartedAtMs: 1010, processName: 'sh', commandLine: 'sh' });
    await membership.meet([{ type: 'appeared', at: AT, holder: forked }]);
    const before = membership.factsOf(101, 1010)!.ancestry;
    await membership.meet([{ type: 'changed', at: AT, holder: { ...forked, processName: 'python3', commandLine: 'python3 w.py' } }]);
    expect(membership.factsOf(101, 1010)?.ancestry).toEqual([
      { pid: 101, name: 'python3', commandLine: 'python3 w.py' },
      { pid: 100, name: 'sh', commandLine: 'sh' },
    ]);
    expect(before.map((a) => a.name)).toEqual(['sh', 'sh']);
  });
});

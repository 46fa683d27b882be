// Which processes belong to a run. A process belongs if it descends from the run's command or carries
// the run tag (HOLDWATCH_RUN=<id>) in its environment — the tag keeps a detached child attributable
// after it was reparented to PID 1 (or a subreaper). Ancestry is recorded when a process is first
// seen, because once the parent exits the chain can no longer be read from the OS.
import type { AncestryEntry, Holder, ProcessInfo, WatchEvent } from '../../contract/holders.js';
import type { MemberFacts, TestHint } from '../../contract/journal.js';
import type { ProcessBrief, ProcessSource } from '../platform.js';

export const RUN_TAG_VARIABLE = 'HOLDWATCH_RUN';

/**
 * The test a process was spawned in, as the runner wrote it into the environment the process
 * inherited: exact whatever the timing and whatever reparenting followed. pytest sets
 * PYTEST_CURRENT_TEST (`path::name (phase)`), bats BATS_SUITE_TEST_NUMBER (1-based, suite-wide).
 */
export type { TestHint };

export function parseTestHint(pytestCurrent: string | null, batsNumber: string | null): TestHint | undefined {
  const pytest = pytestCurrent ? /^(.*) \((setup|call|teardown)\)$/.exec(pytestCurrent) : null;
  if (pytest) return { runner: 'pytest', nodeId: pytest[1]!, phase: pytest[2]! };
  if (batsNumber && /^\d+$/.test(batsNumber)) return { runner: 'bats', number: Number(batsNumber) };
  return undefined;
}

/**
 * The bats test a process runs under, from its ancestry: bats-exec-test is started as
 * `bats-exec-test [flags] <file> <test function> <number in suite> <number in file> <try>`
 * (bats-core 1.5+), and every process of a test descends from it. Exact whatever the timing, where the
 * environment hint is missing: a subshell forked by the test, never exec'd, shows the environment
 * bats-exec-test was exec'd with, before it exported BATS_SUITE_TEST_NUMBER.
 */
export function batsHintFromAncestry(ancestry: readonly AncestryEntry[]): TestHint | undefined {
  for (const a of ancestry) {
    const m = /(?:^|[\s/])bats-exec-test\s(?:.*\s)?\S+\s(\d+)\s\d+\s\d+$/.exec(a.commandLine);
    if (m) return { runner: 'bats', number: Number(m[1]) };
  }
  return undefined;
}

export interface Member {
  pid: number;
  startedAtMs: number;
  name: string;
  /** From this process up to the run's command (inclusive), as seen when first met; its own entry follows its exec. */
  ancestry: AncestryEntry[];
  /** True when it belongs by the environment tag only (its chain to the command was already broken). */
  byTagOnly: boolean;
  testHint?: TestHint;
  /** Set once the hint was read again (see rehint): at most one more read per process. */
  rehinted?: boolean;
}

const identity = (p: { pid: number; startedAtMs: number }) => `${p.pid}@${p.startedAtMs}`;

/**
 * A member forked by `parent`: its own ancestry entry on top of the parent's recorded chain, it
 * belongs as its parent does, and its test hint is its own when it has one, else the parent's.
 */
function childOf(parent: Member, self: Pick<Member, 'pid' | 'startedAtMs' | 'name'>, own: AncestryEntry, testHint?: TestHint): Member {
  const hint = testHint ?? parent.testHint;
  return { ...self, ancestry: [own, ...parent.ancestry], byTagOnly: parent.byTagOnly, ...(hint ? { testHint: hint } : {}) };
}

export class RunMembership {
  private readonly members = new Map<string, Member>();
  /** Processes already judged not to belong, so their environment is read once, not every refresh. */
  private readonly strangers = new Set<string>();
  private readonly commandLines = new Map<string, { name: string; commandLine: string }>();
  /** The refresh in which each command line was last read (see describe). */
  private readonly describedIn = new Map<string, number>();
  private refreshes = 0;
  private alive = new Set<number>();
  /** When the run's command started, once a refresh listed it. */
  private rootStartedAtMs: number | undefined;

  constructor(
    private readonly source: ProcessSource,
    private readonly runId: string,
    private readonly rootPid: number,
  ) {}

  /** Members alive at the last refresh. */
  pids(): number[] {
    return [...this.alive];
  }

  memberOf(pid: number, startedAtMs: number): Member | undefined {
    return this.members.get(identity({ pid, startedAtMs }));
  }

  /**
   * The member with this pid whose start lies within `slackMs` of `aroundMs`: a probe dates its process
   * by its own first record, a little after the OS's start time (and pids are reused, hence the window).
   */
  memberNear(pid: number, aroundMs: number, slackMs: number): Member | undefined {
    let best: Member | undefined;
    for (const member of this.members.values()) {
      if (member.pid !== pid || Math.abs(member.startedAtMs - aroundMs) > slackMs) continue;
      if (!best || Math.abs(member.startedAtMs - aroundMs) < Math.abs(best.startedAtMs - aroundMs)) best = member;
    }
    return best;
  }

  /**
   * A poll's events. Holders it met for the first time: a process not known yet makes the tree be read
   * again; then each is adopted when its parent is gone, and its test hint read again. A holder whose
   * process exec'd renames its member.
   */
  async meet(events: readonly WatchEvent[]): Promise<void> {
    for (const event of events) if (event.type === 'changed') this.execd(event.holder);
    const appeared = events.flatMap((e) => (e.type === 'appeared' ? [e.holder] : []));
    if (appeared.some((h) => !this.memberOf(h.pid, h.processStartedAtMs))) await this.refresh();
    for (const holder of appeared) {
      this.adoptOrphan(holder);
      await this.rehint(holder.pid, holder.processStartedAtMs);
    }
  }

  /** What the journal records of a member: its chain, how it was known, its runner's test hint; null for a stranger. */
  factsOf(pid: number, startedAtMs: number): MemberFacts | null {
    const member = this.memberOf(pid, startedAtMs);
    return member ? { ancestry: member.ancestry, byTagOnly: member.byTagOnly, ...(member.testHint ? { testHint: member.testHint } : {}) } : null;
  }

  /** The latest member with this pid (a process gone since), as process facts: no user, a scan never read it. */
  processInfoOf(pid: number, nowMs: number): ProcessInfo | null {
    const member = this.memberNear(pid, nowMs, Number.MAX_SAFE_INTEGER);
    if (!member) return null;
    const self = member.ancestry[0];
    return {
      pid,
      ppid: member.ancestry[1]?.pid ?? 0,
      startedAtMs: member.startedAtMs,
      name: member.name,
      exe: null,
      commandLine: self?.commandLine ?? member.name,
      user: null,
    };
  }

  /**
   * Re-reads the process table; returns the members first seen in this refresh. `fresh: false` lets
   * the backend reuse what it read recently (the 100 ms tick); an unknown identity asks for fresh.
   */
  async refresh(options: { fresh?: boolean } = {}): Promise<Member[]> {
    const processes = await this.source.listProcesses({ fresh: options.fresh ?? true });
    this.refreshes++;
    const byPid = new Map(processes.map((p) => [p.pid, p]));
    this.rootStartedAtMs ??= byPid.get(this.rootPid)?.startedAtMs;
    const fresh: Member[] = [];
    const alive = new Set<number>();
    // Parents first, so a child's chain can reuse its parent's recorded ancestry.
    for (const process of [...processes].sort((a, b) => a.startedAtMs - b.startedAtMs || a.pid - b.pid)) {
      const key = identity(process);
      let member = this.members.get(key);
      if (!member && !this.strangers.has(key)) {
        member = await this.classify(process, byPid);
        if (member) {
          this.members.set(key, member);
          fresh.push(member);
        } else this.strangers.add(key);
      }
      if (member) alive.add(process.pid);
    }
    this.alive = alive;
    return fresh;
  }

  private async classify(process: ProcessBrief, byPid: Map<number, ProcessBrief>): Promise<Member | undefined> {
    const chain = this.chainToRoot(process, byPid);
    if (chain)
      return {
        pid: process.pid,
        startedAtMs: process.startedAtMs,
        name: process.name,
        ancestry: await this.describe(chain),
        byTagOnly: false,
        ...(await this.hintOf(process.pid)),
      };
    // Forked by a member whose own chain broke (a writer left behind by its test, now init's child):
    // it belongs with its parent. Asked before the tag, because a child exiting as it is listed (a
    // 5 ms `sleep` of that writer) has no environment left to read, and would be a stranger for good.
    const parentMember = this.liveParentMember(process, byPid);
    if (parentMember) {
      const [own] = await this.describe([process]);
      return childOf(parentMember, { pid: process.pid, startedAtMs: process.startedAtMs, name: process.name }, own!, (await this.hintOf(process.pid)).testHint);
    }
    // Forked before the command: its environment (as it was exec'd, all /proc shows) was set before
    // anything held the run's id, and the first refresh, right after the command's spawn, judged it.
    // Not read: on a busy machine that is every process there is.
    if (this.rootStartedAtMs !== undefined && process.startedAtMs < this.rootStartedAtMs) return undefined;
    const tag = await this.source.readEnvironmentVariable(process.pid, RUN_TAG_VARIABLE);
    if (tag !== this.runId) return undefined;
    // Tagged but detached: keep what chain there still is (up to PID 1), and the parent's recorded one.
    const partial = this.chainUpward(process, byPid);
    const parent = byPid.get(process.ppid);
    const known = parent ? this.members.get(identity(parent)) : undefined;
    const ancestry = await this.describe(partial);
    const hint = await this.hintOf(process.pid);
    const testProcess = known ? undefined : this.testProcessOf(hint.testHint, process.startedAtMs);
    const [own] = ancestry;
    return {
      pid: process.pid,
      startedAtMs: process.startedAtMs,
      name: process.name,
      ancestry: known
        ? [own!, ...known.ancestry]
        : testProcess
          ? [own!, { ...testProcess.ancestry[0]!, gapBelow: true as const }, ...testProcess.ancestry.slice(1)]
          : ancestry,
      byTagOnly: true,
      ...hint,
    };
  }

  /**
   * The member that runs the test `hint` names, for a detached process whose parent is gone: what it
   * descends from, by its environment (bats exports the number inside bats-exec-test, so only that
   * process's descendants carry it): bats-exec-test itself, not a subshell of it (which shows the same
   * command line, and may be a sibling); the latest one started before it (bats retries a test in a
   * new one). Only bats names its test process; pytest's hint names a test, not a process.
   */
  private testProcessOf(hint: TestHint | undefined, startedAtMs: number): Member | undefined {
    if (hint?.runner !== 'bats') return undefined;
    const runs = (entry: AncestryEntry | undefined) => {
      const named = entry ? batsHintFromAncestry([entry]) : undefined;
      return named?.runner === 'bats' && named.number === hint.number;
    };
    let found: Member | undefined;
    for (const m of this.members.values()) {
      if (m.byTagOnly || m.startedAtMs > startedAtMs || (found && found.startedAtMs >= m.startedAtMs)) continue;
      if (runs(m.ancestry[0]) && !runs(m.ancestry[1])) found = m;
    }
    return found;
  }

  /**
   * A holder whose process was gone before a refresh could list it (a 5 ms `sleep` forked by a run's
   * writer, holding the fd it inherited): it belongs when the parent the scan read with it is a member
   * that started no later than it. Its ancestry is itself on top of the parent's recorded one; nothing
   * is read from the OS, since the process is gone. A process a refresh judged a stranger stays one.
   */
  adoptOrphan(holder: { pid: number; processStartedAtMs: number; ppid: number; processName: string; commandLine: string }): Member | undefined {
    const key = identity({ pid: holder.pid, startedAtMs: holder.processStartedAtMs });
    const known = this.members.get(key);
    if (known || this.strangers.has(key)) return known;
    let parent: Member | undefined;
    for (const m of this.members.values())
      if (m.pid === holder.ppid && m.startedAtMs <= holder.processStartedAtMs && (!parent || m.startedAtMs > parent.startedAtMs)) parent = m;
    if (!parent) return undefined;
    const self = { pid: holder.pid, startedAtMs: holder.processStartedAtMs, name: holder.processName };
    const member = childOf(parent, self, { pid: holder.pid, name: holder.processName, commandLine: holder.commandLine });
    this.members.set(key, member);
    return member;
  }

  /**
   * A member that exec'd since it was met: its own ancestry entry names what it runs now. A new array,
   * so the chains already recorded for its holders stay as they were written.
   */
  private execd(holder: Pick<Holder, 'pid' | 'processStartedAtMs' | 'processName' | 'commandLine'>): void {
    const member = this.memberOf(holder.pid, holder.processStartedAtMs);
    if (!member || member.ancestry[0]?.pid !== holder.pid) return;
    member.name = holder.processName;
    member.ancestry = [{ ...member.ancestry[0], name: holder.processName, commandLine: holder.commandLine }, ...member.ancestry.slice(1)];
  }

  /**
   * Reads again what a process met between fork and exec showed of its parent: its name and command
   * line (its own ancestry entry), and its test hint when it had none — its environment is the parent's
   * as that parent was exec'd, without what the runner exported since (bats sets BATS_SUITE_TEST_NUMBER
   * inside bats-exec-test). Asked once a member is seen holding something, by when it has usually
   * exec'd, and only once; one still without a hint keeps the timeline's answer.
   */
  async rehint(pid: number, startedAtMs: number): Promise<void> {
    const member = this.memberOf(pid, startedAtMs);
    if (!member || member.rehinted) return;
    member.rehinted = true;
    const info = await this.source.processInfo(pid);
    if (info && info.startedAtMs === startedAtMs && member.ancestry[0]?.pid === pid) {
      member.name = info.name;
      member.ancestry[0] = { pid, name: info.name, commandLine: info.commandLine };
    }
    if (member.testHint) return;
    const { testHint } = await this.hintOf(pid);
    if (testHint) member.testHint = testHint;
  }

  private async hintOf(pid: number): Promise<{ testHint?: TestHint }> {
    const [pytest, bats] = await Promise.all([
      this.source.readEnvironmentVariable(pid, 'PYTEST_CURRENT_TEST'),
      this.source.readEnvironmentVariable(pid, 'BATS_SUITE_TEST_NUMBER'),
    ]);
    const testHint = parseTestHint(pytest, bats);
    return testHint ? { testHint } : {};
  }

  /** The member that is this process's parent now, when it started no later (not a reused pid). */
  private liveParentMember(process: ProcessBrief, byPid: Map<number, ProcessBrief>): Member | undefined {
    const parent = byPid.get(process.ppid);
    if (!parent || parent.startedAtMs > process.startedAtMs) return undefined;
    return this.members.get(identity(parent));
  }

  /** The chain from `process` up to the run's command, or null when it does not descend from it. */
  private chainToRoot(process: ProcessBrief, byPid: Map<number, ProcessBrief>): ProcessBrief[] | null {
    const chain = this.chainUpward(process, byPid);
    return chain.some((p) => p.pid === this.rootPid) ? chain.slice(0, chain.findIndex((p) => p.pid === this.rootPid) + 1) : null;
  }

  private chainUpward(process: ProcessBrief, byPid: Map<number, ProcessBrief>): ProcessBrief[] {
    const chain: ProcessBrief[] = [process];
    let current = process;
    while (current.pid !== this.rootPid && current.ppid > 0 && chain.length < 64) {
      const parent = byPid.get(current.ppid);
      // A parent that started after its child is a reused pid, not the real parent.
      if (!parent || parent.startedAtMs > current.startedAtMs) break;
      chain.push(parent);
      current = parent;
    }
    return chain;
  }

  private async describe(chain: ProcessBrief[]): Promise<AncestryEntry[]> {
    const entries: AncestryEntry[] = [];
    for (const p of chain) {
      const key = identity(p);
      // Read again once per refresh, not once per process: a process first met between fork and exec
      // (bats-exec-file's subshell before it becomes bats-exec-test) shows its parent's command line.
      // What was read before stands in when the process has exited since.
      // The name too: the process table's is comm, which may be a thread's (Node 24's "MainThread").
      if (this.describedIn.get(key) !== this.refreshes) {
        const info = await this.source.processInfo(p.pid);
        if (info || !this.commandLines.has(key)) this.commandLines.set(key, { name: info?.name ?? p.name, commandLine: info?.commandLine ?? p.name });
        this.describedIn.set(key, this.refreshes);
      }
      entries.push({ pid: p.pid, ...this.commandLines.get(key)! });
    }
    return entries;
  }
}

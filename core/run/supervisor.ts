// Supervises one test run: follows its process tree, polls the holders under the watched dirs (the
// run's processes often, the whole system less often), scans at once when an output line carries a
// teardown-failure signature, and journals every fact. The front end owns the child process and the
// byte-for-byte pass-through of its output; this class only reads a copy of it.
import type { Holder, PlatformName, ProcessInfo } from '../../contract/holders.js';
import type { BoundaryHeld } from '../../contract/boundary.js';
import type { AttributedHolder, RunRecord, TestEvent } from '../../contract/runs.js';
import type { SCOPE_KINDS } from '../../contract/enums.js';
import { withDeadline, type Clock } from '../clock.js';
import type { HolderSource, ProcessSource, WatchDir } from '../platform.js';
import { holderKey, Watcher, type PollOutcome } from '../watch.js';
import type { JournalEntry, MemberFacts } from '../../contract/journal.js';
import { RunMembership } from './membership.js';
import { followOutliving } from './follow-outliving.js';
import { ListedHoldings } from './listed-holdings.js';
import { stacksEntries, type RunStacks } from './probe-held.js';
import { RunRecorder, type KeyedHolder } from './run-recorder.js';
import { failureBlockers, JUST_GONE_MS, type JustGone } from './failure-blockers.js';
import { RunEventFeed } from './run-events.js';
import type { RunPlace } from './leftovers.js';
import { SerialQueue } from '../serial-queue.js';
import type { FailureMatch } from '../signatures/failure-line.js';
import { FailureAmends, type FailureSlot } from './failure-amends.js';
import { failedTeardown, type FoldedPhase, type FoldedTestEvent } from '../runners/folded-phases.js';

type ScopeKind = (typeof SCOPE_KINDS)[number];
type ScanHeld = { scanStartedAtMs: number; scanEndedAtMs: number; held: string[] };

/** A runner's "teardown errored" event this close to a failure line is the same failure. */
const FAILURE_MERGE_MS = 2000;
/** How long each step of finishing may take before the record goes on without it. */
const FINISH_STEP_MS = 60_000;

export interface SupervisorOptions {
  runId: string;
  command: string[];
  cwd: string;
  dirs: readonly WatchDir[];
  platform: PlatformName;
  versions: { holdwatch: string; node: string; os: string };
  holders: HolderSource;
  processes: ProcessSource;
  clock: Clock;
  /** Every journal entry, in order, as it happens (the front end appends it to the journal file). */
  journal: (entry: JournalEntry) => void;
  detectFailure: (line: string) => FailureMatch | null;
  /** The run's processes are polled this often... */
  focusIntervalMs?: number;
  /** ...and the whole system this often. */
  fullIntervalMs?: number;
  onError: (error: unknown) => void;
}

export class RunSupervisor {
  /** The run as it goes, as RunEvents (holders and failures attributed so far, the record paced). */
  readonly events: RunEventFeed;
  private readonly recorder = new RunRecorder();
  private membership: RunMembership | undefined;
  private watcher: Watcher | undefined;
  private readonly lastSeen = new Map<string, number>();
  /** A probe reports the tests (the runner table says so, or a probe reported one): stdout's are not recorded again. */
  private testsFromProbe = false;
  /** Current holders whose path was still linked when last journaled: an unlink later is journaled once. */
  private readonly linked = new Set<string>();
  /** When each current holder first appeared (its scan's end), by key: a cleanup's own fresh handles. */
  private readonly appearedAt = new Map<string, number>();
  /** Holders gone in the last JUST_GONE_MS, by key, with when they were last seen. */
  private readonly justGone = new Map<string, JustGone>();
  private readonly failureTexts = new Set<string>();
  private lastFailureAtMs = -Infinity;
  private lastTeardownEventFailureAtMs = -Infinity;
  /** The failures whose entry a runner's later word may still amend: its test, or what failed. */
  private readonly amends = new FailureAmends(
    (entry) => this.write(entry),
    () => this.options.clock.now(),
    FAILURE_MERGE_MS,
  );
  private readonly tasks: SerialQueue;
  private readonly listed: ListedHoldings;

  constructor(private readonly options: SupervisorOptions) {
    this.tasks = new SerialQueue((error) => options.onError(error));
    this.listed = new ListedHoldings(options.dirs, options.processes);
    this.events = new RunEventFeed(this.recorder, options.clock, options.onError);
  }

  /** Records the start; call before spawning so the first poll can see the command's children. */
  begin(): void {
    const { runId, command, cwd, dirs, platform, clock, versions } = this.options;
    this.write({ t: 'run-start', runId, command, cwd, watched: dirs.map((d) => d.display), platform, atMs: clock.now(), versions });
  }

  /** The command is running as `pid`: follow it. */
  attach(pid: number): void {
    const o = this.options;
    this.membership = new RunMembership(o.processes, o.runId, pid);
    this.watcher = new Watcher({
      source: o.holders,
      dirs: o.dirs,
      clock: o.clock,
      fullIntervalMs: o.fullIntervalMs ?? 1000,
      focusIntervalMs: o.focusIntervalMs ?? 100,
      strangersByIdleCheck: true,
      focusFirst: true,
      focusPids: () => this.membership?.pids() ?? [],
      // New children must be known before the focus poll that should see them.
      beforePoll: async () => void (await this.membership?.refresh({ fresh: false })),
      onPoll: (outcome) => void this.tasks.run(() => this.recordPoll(outcome)),
      onError: o.onError,
    });
    this.watcher.start();
  }

  /** A line of the command's output (decoded by the runner parser): checked for failure signatures. */
  outputLine(line: string, test?: string): void {
    const match = this.options.detectFailure(line);
    if (!match) return;
    // A runner's teardown-error event just reported this failure (the line often follows it): the line says what it was.
    if (this.options.clock.now() - this.lastTeardownEventFailureAtMs > FAILURE_MERGE_MS) this.recordFailure(line, match, test);
    else this.amends.sayWhat(line, match);
  }

  /**
   * A test event read from the command's output (go test -json and -v, TAP): nothing waits for holdwatch
   * there, so a test's end gets a scan of the run's processes at once, the nearest to its end there is;
   * not when `ledgered`: a syscall ledger of the process that ran it says what was open at that end.
   */
  outputTestEvent(event: TestEvent, ledgered = false): void {
    // A probe inside the runner reports its tests (mocha and jest through the Node preload, under
    // `npm test` too): the same tests read from stdout would be counted twice.
    if (this.testsFromProbe) return;
    this.testEvent(event);
    if (event.type === 'test-end' && !ledgered && this.watcher) this.watcher.scanNow({ full: false }).catch(this.options.onError);
  }

  /** The runner table knows this runner's tests are reported by a probe, before any of them starts. */
  expectProbeTests(): void {
    this.testsFromProbe = true;
  }

  /** A test event from a probe's events file (pytest plugin, node reporter, bats formatter, Node preload). */
  probeTestEvent({ event, phases }: FoldedTestEvent): void {
    if (event.type === 'test-start' || event.type === 'test-end') this.testsFromProbe = true;
    this.testEvent(event, phases);
  }

  /** A test event from the runner adapter (pytest plugin, go test -json, TAP...); a test's end may carry its phases. */
  testEvent(event: TestEvent, phases?: FoldedPhase[]): void {
    this.write(phases ? { t: 'test', event, phases } : { t: 'test', event });
    // A teardown that errored (pytest plugin, bats formatter) is a failure moment even when the runner prints
    // its message only later; one teardown, one failure: none when an output line reported one just now.
    const teardown = failedTeardown(event, phases);
    if (!teardown) return;
    const now = this.options.clock.now();
    if (now - this.lastFailureAtMs <= FAILURE_MERGE_MS) {
      this.amends.nameTest(teardown.name); // the output line came first: this event names its test
      return;
    }
    const text = teardown.detail ?? `teardown of ${teardown.name} failed`;
    this.recordFailure(text, this.options.detectFailure(text) ?? { kind: 'teardown-error', code: null, path: null }, teardown.name);
    this.lastTeardownEventFailureAtMs = now;
  }

  /**
   * Test `name` ended in process `pid`, which waits for this (the test-boundary channel): the run's
   * processes are scanned at once, and what they hold is journaled against the test. Resolves when
   * that entry is written; then the test process may go on.
   */
  async testBoundary(name: string, atMs: number, pid: number, scope?: ScopeKind, waited = true): Promise<void> {
    const boundary = { t: 'boundary' as const, test: name, ...(scope ? { scope } : {}), atMs, pid, ...(waited ? {} : { unwaited: true as const }) };
    await this.scanAndJournal(
      () => true,
      (scan) => ({ ...boundary, ...scan }),
    );
  }

  /**
   * Process `pid` stopped waiting for the scan at the end of `name` (ended at `atMs`) at `wentOnAtMs`:
   * journaled at once, whether that scan is done or not; the record weighs it against the scan's end.
   */
  wentOn(name: string, atMs: number, pid: number, wentOnAtMs: number, scope?: ScopeKind): void {
    this.write({ t: 'went-on', test: name, ...(scope ? { scope } : {}), atMs, pid, wentOnAtMs });
  }

  /**
   * Test `name` (or, with `scope`, that wider scope) ended in process `pid`, which listed what it held
   * itself and went on: journaled as that process's boundary with no scan. Holdings no poll met become
   * rows here, and those gone since its last list are gone; what a poll met stays the poll's to follow.
   */
  async listedBoundary(name: string, atMs: number, pid: number, listed: readonly BoundaryHeld[], scope?: ScopeKind): Promise<void> {
    const info = await this.processInfoOf(pid);
    await this.tasks.run(async () => {
      if (!info) return;
      const member = this.membership?.factsOf(pid, info.startedAtMs) ?? null;
      const polled = (key: string) => this.lastSeen.has(key);
      const held = this.listed.apply({ pid, atMs, info, member, listed }, polled, this.linked, (entry) => this.write(entry));
      this.write({
        t: 'boundary',
        test: name,
        ...(scope ? { scope } : {}),
        listed: true,
        atMs,
        pid,
        scanStartedAtMs: atMs,
        scanEndedAtMs: atMs,
        held,
      });
    });
  }

  /**
   * A run process said hello on the boundary channel (before its first test): what it is, read now,
   * while it surely runs; its boundaries may be handled after it exited on a loaded machine, and a
   * listed boundary needs the holder's process facts.
   */
  knowProcess(pid: number): void {
    void this.processInfoOf(pid);
  }

  /** A listing process's facts, read once (ListedHoldings); one gone since: the run's record of it. */
  private processInfoOf(pid: number): Promise<ProcessInfo | null> {
    return this.listed.processInfo(pid, () => this.membership?.processInfoOf(pid, this.options.clock.now()) ?? null);
  }

  /**
   * Process `pid` is stopped at its exit, every file it had still open (a Go test binary, held by
   * holdwatch's -exec program): scanned at once, and what the run holds is journaled as held past all
   * of that process's tests. Resolves when the entry is written; then the process may finish exiting.
   */
  async exitStop(atMs: number, pid: number): Promise<void> {
    await this.scanAndJournal(
      (h) => h.pid === pid,
      (scan) => ({ t: 'exit-stop', atMs, pid, ...scan }),
    );
  }

  /** Scans the run's processes now and journals `entry` with the keys of theirs that `which` picks. */
  private async scanAndJournal(which: (h: Holder) => boolean, entry: (scan: ScanHeld) => JournalEntry): Promise<void> {
    const watcher = this.watcher;
    if (!watcher) return;
    const outcome = await watcher.scanNow({ full: false });
    // The scan's own entries were queued first (onPoll, with the membership refreshed): they come before.
    await this.tasks.run(async () => {
      const held = [...new Set(outcome.result.holders.filter((h) => this.isKnown(h) && which(h)).map(holderKey))];
      this.write(entry({ scanStartedAtMs: outcome.startedAtMs, scanEndedAtMs: outcome.endedAtMs, held }));
    });
  }

  /** The command's own process exited (its descendants may live on). */
  commandExited(exitCode: number | null): void {
    this.write({ t: 'command-exit', atMs: this.options.clock.now(), exitCode });
  }

  /** Follows the run's processes that outlived the command (follow-outliving.ts), for at most `graceMs`. */
  async followOutliving(graceMs: number): Promise<void> {
    const { watcher, membership } = this;
    if (!watcher || !membership) return;
    await followOutliving({
      watcher,
      membership,
      clock: this.options.clock,
      graceMs,
      intervalMs: this.options.focusIntervalMs ?? 100,
      deadlineMs: graceMs + FINISH_STEP_MS,
      isKnown: (h) => this.isKnown(h),
      stage: (stage) => this.write({ t: 'stage', atMs: this.options.clock.now(), stage }),
      onError: this.options.onError,
    });
  }

  /** The command exited: a last full scan, leftovers, the end entry. Returns the record. */
  async finish(
    exitCode: number | null,
    leftovers: (placeAt: (ms: number) => RunPlace) => Promise<RunRecord['leftovers']>,
    stacksOf?: (holders: KeyedHolder[]) => Promise<RunStacks>,
  ): Promise<RunRecord> {
    // Every step is bounded: one that stalls costs its part of the record, never the record (nor hangs
    // `holdwatch run` forever). Past its deadline it is said, and its part is left out.
    const { clock, onError } = this.options;
    const bounded = <T>(work: () => Promise<T>, what: string): Promise<T | null> => {
      this.write({ t: 'stage', atMs: clock.now(), stage: what });
      return withDeadline(clock, work(), FINISH_STEP_MS, what).catch((error: unknown) => {
        onError(error);
        return null;
      });
    };
    const watcher = this.watcher;
    if (watcher) await bounded(() => watcher.scanLast(), 'the final scan');
    await bounded(() => this.tasks.drain(), 'the snapshots still queued');
    this.watcher?.dispose();
    const found = await bounded(() => leftovers((ms) => this.recorder.placeAt(ms)), 'listing the leftovers');
    if (found) this.write({ t: 'leftovers', leftovers: found });
    const stacks = stacksOf ? await bounded(() => stacksOf(this.recorder.keyedHolders()), 'matching the probes’ stacks') : null;
    if (stacks) for (const entry of stacksEntries(stacks, this.options.platform, this.membership)) this.write(entry);
    this.write({ t: 'run-end', atMs: this.options.clock.now(), exitCode, lastSeen: Object.fromEntries(this.lastSeen) });
    return this.recorder.record();
  }

  record(): RunRecord {
    return this.recorder.record();
  }

  attributedHolder(key: string): AttributedHolder | null {
    return this.recorder.attributedHolder(key);
  }

  /** How the run sees a live process (ancestry as recorded at first sight); null for a stranger. */
  membershipOf(pid: number, startedAtMs: number): (MemberFacts & { spawnedDuring: string | null }) | null {
    const member = this.membership?.memberOf(pid, startedAtMs);
    if (!member) return null;
    return { ancestry: member.ancestry, byTagOnly: member.byTagOnly, spawnedDuring: this.recorder.spawnTestOf(member, startedAtMs) };
  }

  dispose(): void {
    this.watcher?.dispose();
  }

  private recordFailure(line: string, match: FailureMatch, test?: string): void {
    // pytest reports a teardown error live (plugin) and prints the same text again in its summary.
    if (!this.watcher || this.failureTexts.has(line)) return;
    this.failureTexts.add(line);
    const atMs = this.options.clock.now();
    this.lastFailureAtMs = atMs;
    const slot: FailureSlot = { atMs, test: test ?? null, line, match, written: false };
    this.amends.opened(slot);
    // Scan now, from this line, not at the next tick: the holder may be gone by then. The poll's own
    // entries are queued (onPoll) before this promise settles, so the failure entry follows them.
    const scan = this.watcher.scanNow();
    void scan.then(
      (outcome) =>
        this.tasks.run(async () => {
          const holderKeys = failureBlockers({
            atMs,
            path: slot.match.path,
            outcome,
            current: this.watcher!.current(),
            justGone: this.justGone,
            appearedAt: this.appearedAt,
            isKnown: (h) => this.isKnown(h),
          });
          this.write({
            t: 'failure',
            atMs,
            scannedAtMs: outcome.startedAtMs,
            text: slot.line.slice(0, 2000),
            path: slot.match.path,
            kind: slot.match.kind,
            code: slot.match.code,
            holderKeys,
            test: slot.test,
          });
          slot.written = true;
        }),
      this.options.onError,
    );
  }

  private async recordPoll(outcome: PollOutcome): Promise<void> {
    // A process may have been read anywhere between the scan's start and end. First sight is dated at
    // the end (the handle surely existed by then: never before the test that opened it), last sight
    // at the start (it surely existed then: never a leak verdict for a handle closed during the scan).
    const { startedAtMs, endedAtMs } = outcome;
    await this.membership?.meet(outcome.events);
    for (const event of outcome.events) {
      const key = holderKey(event.holder);
      if (event.type === 'appeared') {
        if (!event.holder.deleted) this.linked.add(key);
        this.lastSeen.set(key, startedAtMs);
        this.appearedAt.set(key, endedAtMs);
        this.justGone.delete(key); // back again: it is current, not just gone
        const member = this.membership?.factsOf(event.holder.pid, event.holder.processStartedAtMs) ?? null;
        this.write({ t: 'appeared', atMs: endedAtMs, scanStartedAtMs: startedAtMs, key, holder: event.holder, member });
      } else if (event.type === 'changed') this.write({ t: 'changed', atMs: endedAtMs, key, holder: event.holder });
      else {
        const lastSeenAtMs = this.lastSeen.get(key) ?? startedAtMs;
        this.write({ t: 'gone', atMs: startedAtMs, key, lastSeenAtMs });
        this.justGone.set(key, { holder: event.holder, lastSeenAtMs, appearedAtMs: this.appearedAt.get(key) });
        this.lastSeen.delete(key);
        this.appearedAt.delete(key);
        this.linked.delete(key);
      }
    }
    for (const [key, gone] of this.justGone) if (gone.lastSeenAtMs < startedAtMs - JUST_GONE_MS) this.justGone.delete(key);
    // Unlinked while held (an `rm`, `os.remove`, `rmtree` of a file still open): on Windows that delete fails.
    for (const key of outcome.result.holders.filter((h) => h.deleted).map(holderKey))
      if (this.linked.delete(key)) this.write({ t: 'deleted', atMs: startedAtMs, key });
    const covered = outcome.full ? null : new Set(this.membership?.pids());
    for (const h of outcome.result.holders) if (!covered || covered.has(h.pid)) this.lastSeen.set(holderKey(h), startedAtMs);
  }

  private isKnown(holder: Holder): boolean {
    return this.membership?.memberOf(holder.pid, holder.processStartedAtMs) !== undefined;
  }

  private write(entry: JournalEntry): void {
    this.recorder.apply(entry);
    this.options.journal(entry);
    this.events.entry(entry);
  }
}

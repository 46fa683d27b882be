// Folds journal entries into a RunRecord, attributing every holder. Used live by the supervisor and
// later by `holdwatch report`, so both always agree.
import type { Attribution, AttributedHolder, FailureRecord, RunRecord } from '../../contract/runs.js';
import type { JournalEntry, MemberFacts } from '../../contract/journal.js';
import type { OpenStack, StackLookup } from '../../contract/stacks.js';
import { foldInherited, HolderLedger, withoutMappingCopies, withoutNamingCopies, type LedgerRow } from './holder-ledger.js';
import type { RunPlace } from './leftovers.js';
import { batsHintFromAncestry, type TestHint } from './membership.js';
import { scratchOf } from './scratch.js';
import { heldAtEnd, verdictOf, type Boundary, type Finding, type RunFacts } from './verdict.js';
import { WentOnLedger } from './went-on.js';
import { testOfGoTempDir } from './temp-dir-names.js';
import { TestTimeline } from './timeline.js';

/**
 * A holder with the key its journal entries use and, when a scan saw it, when that first scan began:
 * the scan may have read an fd the code closed before the scan ended (and was dated).
 */
export interface KeyedHolder {
  key: string;
  holder: AttributedHolder;
  seenFromMs?: number;
}

/**
 * How late runner events read from output (TAP, go test, bats' formatter, node:test's reporter) are
 * assumed to be stamped after the moment they describe. Events the test's own process stamped
 * (TestEvent.inTestProcess) are exact and compared as they are.
 */
export const RUNNER_LAG_MS = 25;

type Start = Extract<JournalEntry, { t: 'run-start' }>;

const NOTHING_HELD: ReadonlySet<string> = new Set();
type Failure = Extract<JournalEntry, { t: 'failure' }>;

export class RunRecorder {
  private start: Start | undefined;
  private readonly timeline = new TestTimeline();
  private readonly ledger = new HolderLedger();
  private readonly failures: Failure[] = [];
  /** In journal order, which is scan order. */
  private readonly boundaries: Boundary[] = [];
  private readonly wentOn = new WentOnLedger();
  /** Per process stopped at its exit (a Go test binary): the keys it held then. */
  private readonly heldAtExit = new Map<number, ReadonlySet<string>>();
  private leftovers: RunRecord['leftovers'] = [];
  private end: { atMs: number; exitCode: number | null } | undefined;
  /** When the command's own process exited, when holdwatch started it. */
  private commandExitAtMs: number | undefined;
  private lastStage: string | undefined;
  private readonly facts: RunFacts = {
    scopeEnd: (row, scope) => this.boundariesOf(row).find((b) => b.scope && b.test === scope.name && this.isAfterFirstSight(b, row)),
    testEnd: (row, test) => this.boundariesOf(row).find((b) => !b.scope && b.test === test && this.isAfterFirstSight(b, row)),
    heldAtExit: (row) => this.heldAtExit.get(row.holder.pid)?.has(row.key) === true,
    seenAfterCommandExit: (row) => this.commandExitAtMs !== undefined && row.lastSeenAtMs >= this.commandExitAtMs,
    testEndMs: (test) => this.timeline.endOf(test),
  };

  apply(entry: JournalEntry): void {
    switch (entry.t) {
      case 'run-start':
        this.start = entry;
        break;
      case 'test':
        this.timeline.apply(entry.event, entry.phases);
        break;
      case 'appeared':
        this.ledger.appeared(entry);
        break;
      case 'changed':
        this.ledger.changed(entry);
        break;
      case 'deleted':
        this.ledger.deleted(entry.key);
        break;
      case 'gone':
        this.ledger.gone(entry);
        break;
      case 'failure':
        this.failures.push(entry);
        this.ledger.blocked(entry.holderKeys);
        break;
      case 'boundary': {
        const boundary: Boundary = {
          test: entry.test,
          ...(entry.scope ? { scope: entry.scope } : {}),
          by: entry.listed ? 'self-inventory' : 'test-boundary',
          pid: entry.pid,
          endedAtMs: entry.atMs,
          scanStartedAtMs: entry.scanStartedAtMs,
          scanEndedAtMs: entry.scanEndedAtMs,
          // Most ends find nothing held: one shared empty set, not one per test of a 100,000-test run.
          held: entry.held.length === 0 ? NOTHING_HELD : new Set(entry.held),
        };
        this.wentOn.boundary(boundary, entry.atMs, entry.unwaited === true);
        this.boundaries.push(boundary);
        break;
      }
      case 'went-on':
        this.wentOn.wentOn(entry);
        break;
      case 'exit-stop':
        this.heldAtExit.set(entry.pid, new Set(entry.held));
        break;
      case 'failure-test': {
        const failure = this.failures.findLast((f) => f.atMs === entry.atMs && !f.test);
        if (failure) failure.test = entry.test;
        break;
      }
      case 'failure-said': {
        const failure = this.failures.findLast((f) => f.atMs === entry.atMs);
        if (failure) Object.assign(failure, { text: entry.text, path: entry.path, kind: entry.kind, code: entry.code });
        break;
      }
      case 'leftovers':
        this.leftovers = entry.leftovers;
        break;
      case 'stacks':
        this.ledger.stacks(entry.byKey);
        break;
      case 'probe-held':
        this.ledger.probeHeld(entry);
        break;
      case 'gc-closed':
        this.ledger.gcClosed(entry);
        break;
      case 'stage':
        this.lastStage = entry.stage;
        break;
      case 'command-exit':
        this.commandExitAtMs = entry.atMs;
        break;
      case 'run-end':
        this.end = entry;
        this.ledger.lastSeen(entry.lastSeen);
        break;
    }
  }

  /**
   * The test running at a real moment `ms` (a process start, a file's birth, a poll). Runner events read
   * from output are stamped late (test2json when it reads the line, a reporter or formatter in another
   * process when it hears of it, we when we read it), so against those the moment is compared as if
   * RUNNER_LAG_MS later (go test -json's events come a few milliseconds after the fact).
   */
  testAt(ms: number): string | null {
    return this.timeline.testAt(ms, RUNNER_LAG_MS);
  }

  /** The test running at `ms`, or else the last one that had ended by then. */
  placeAt(ms: number): RunPlace {
    const during = this.testAt(ms);
    return { during, after: during === null ? this.timeline.lastEndedBefore(ms, RUNNER_LAG_MS) : null };
  }

  /**
   * The test a run's process was spawned in: its runner's hint; else the test the probe recorded at the
   * spawn call (in the parent, so exact however the child detached); else the test running when it started.
   */
  spawnTestOf(member: MemberFacts, processStartedAtMs: number, spawn?: StackLookup): string | null {
    const probed = spawn?.found ? (spawn.stack.test ?? null) : null;
    return this.testOfHint(member.testHint ?? batsHintFromAncestry(member.ancestry)) ?? probed ?? this.testAt(processStartedAtMs);
  }

  /** The test a runner's environment variable names, matched against the timeline's names. */
  private testOfHint(hint: TestHint | undefined): string | null {
    if (!hint) return null;
    if (hint.runner === 'bats') return this.timeline.nameOfNth(hint.number);
    return this.timeline.findName((name) => name === hint.nodeId || name.endsWith(`/${hint.nodeId}`)) ?? hint.nodeId;
  }

  /** Every holder seen, with the key its journal entries use (for matching stacks at the end). */
  keyedHolders(): KeyedHolder[] {
    return this.ledger.values().map((row) => ({ key: row.key, holder: this.attribute(row), seenFromMs: row.firstScanStartedAtMs }));
  }

  /**
   * One holder as attributed now, by its journal key; null when never seen. What a front end sends per
   * entry: building the whole record per entry would make replaying a journal quadratic in its holders.
   */
  attributedHolder(key: string): AttributedHolder | null {
    const row = this.ledger.get(key);
    return row ? this.attribute(row) : null;
  }

  record(): RunRecord {
    const start = this.start;
    if (!start) throw new Error('journal has no run-start entry');
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      runId: start.runId,
      command: start.command,
      cwd: start.cwd,
      watched: start.watched,
      platform: start.platform,
      exitCode: this.end?.exitCode ?? null,
      startedAt: iso(start.atMs),
      endedAt: this.end ? iso(this.end.atMs) : null,
      ...(this.commandExitAtMs === undefined ? {} : { commandExitedAt: iso(this.commandExitAtMs) }),
      ...(!this.end && this.lastStage !== undefined ? { stoppedWhile: this.lastStage } : {}),
      tests: this.testRecords(),
      holders: foldInherited(withoutMappingCopies(withoutNamingCopies(this.ledger.values()))).map(({ row, also }) => ({
        ...this.attribute(row),
        ...(also.length > 0
          ? { alsoHeldBy: also.map((r) => ({ pid: r.holder.pid, processName: r.holder.processName, processStartedAtMs: r.holder.processStartedAtMs })) }
          : {}),
      })),
      failures: this.failures.map((f) => this.failureRecord(f)),
      leftovers: this.leftovers,
      versions: start.versions,
    };
  }

  /** The timeline's tests, those whose end no scan was waited out for marked. */
  private testRecords(): RunRecord['tests'] {
    const unconfirmed = new Set(this.boundaries.filter((b) => !b.scope && heldAtEnd(b, '') === undefined).map((b) => b.test));
    const tests = this.timeline.records();
    return unconfirmed.size === 0 ? tests : tests.map((t) => (unconfirmed.has(t.name) ? { ...t, endUnconfirmed: true as const } : t));
  }

  /** The latest failure as attributed now (what a front end sends per failure entry); null before any. */
  lastFailure(): FailureRecord | null {
    const last = this.failures.at(-1);
    return last ? this.failureRecord(last) : null;
  }

  private failureRecord(f: Failure): FailureRecord {
    return {
      at: new Date(f.atMs).toISOString(),
      text: f.text,
      path: f.path,
      kind: f.kind,
      code: f.code,
      // Runners like bats and go print a test's output after it ended: then it is the last one ended.
      test: f.test ?? this.timeline.testAt(f.atMs) ?? this.timeline.lastEndedBefore(f.atMs),
      holders: f.holderKeys.flatMap((key) => {
        const row = this.ledger.get(key);
        return row ? [this.attribute(row)] : [];
      }),
    };
  }

  private attribute(row: LedgerRow): AttributedHolder {
    // Looked up now, not when the entry arrived: runner events may reach us after the poll that saw it.
    // A row only the probe saw was seen at its open, inside its process, where the probe knew the test:
    // the runners' lag (which dates a scan against their events) does not apply to it.
    const probeOpen = row.seenByProbe && row.stacks?.open.found ? row.stacks.open.stack : undefined;
    // An open of a wider scope that only the probe saw was made outside any test.
    const firstSeenDuring = (probeOpen && this.recordedTest(probeOpen)) ?? (probeOpen?.scope ? null : this.testAt(row.firstSeenAtMs));
    const spawnedDuring = row.member ? this.spawnTestOf(row.member, row.holder.processStartedAtMs, row.stacks?.spawn) : null;
    const opened = this.openedDuring(row, firstSeenDuring);
    const { verdict, by } = verdictOf(row, opened, this.facts);
    return {
      ...row.holder,
      commandLine: commandLineOf(row),
      attribution: {
        spawnedDuring,
        firstSeenDuring,
        openedDuring: opened.test,
        openedDuringBy: opened.by,
        ...(opened.scope ? { scope: opened.scope } : {}),
        verdict,
        verdictBy: by,
        ...(row.seenByProbe ? { seenBy: 'probe' as const } : {}),
        ...(row.closedByFinalizer ? { closedByFinalizer: closedByFinalizerOf(row.closedByFinalizer) } : {}),
        ...(scratchOf(row.holder) === null ? {} : { scratch: scratchOf(row.holder)! }),
        ancestry: row.member?.ancestry ?? [],
        firstSeenAt: new Date(row.firstSeenAtMs).toISOString(),
        // Last sight is dated conservatively (a scan's start), so it may precede a first sight dated at
        // the same scan's end; shown, it is never earlier than the first.
        lastSeenAt: new Date(Math.max(row.lastSeenAtMs, row.firstSeenAtMs)).toISOString(),
        ...(row.stacks ? { openStack: row.stacks.open, spawnStack: row.stacks.spawn } : {}),
        ...(row.stacks?.deletedBy ? { deletedBy: row.stacks.deletedBy } : {}),
      },
    };
  }

  /**
   * The test during which the handle was opened, by the strongest evidence there is: the probe's record
   * of the open (made in that process, with the test in progress there); else the test-boundary scans
   * of its test process (a handle first seen after one test's end scan and by the next one's was opened
   * during that next test, however short); else the test whose temp dir holds the file (Go's
   * t.TempDir()); else the runner's timeline at its first sighting.
   */
  private openedDuring(row: LedgerRow, firstSeenDuring: string | null): Finding {
    const open = row.stacks?.open;
    if (open?.found && open.viaPid === null) {
      // A descriptor the process listed itself knows its scope exactly, not its line.
      const by = open.stack.runtime === 'strace' ? 'syscall-ledger' : open.stack.listed ? 'self-inventory' : 'probe-open';
      if (typeof open.stack.test === 'string') return { test: this.recordedTest(open.stack) ?? open.stack.test, by };
      if (open.stack.scope) return { test: null, by, scope: open.stack.scope };
    }
    if (this.presentBeforeFirstTest(row)) return { test: null, by: null };
    // The process's own lists say exactly when it began to hold it: the first test end that lists it.
    const listed = this.boundariesOf(row).find((b) => !b.scope && b.by === 'self-inventory' && b.pid === row.holder.pid && b.held.has(row.key));
    if (listed) return { test: listed.test, by: 'self-inventory' };
    // Spawned in a test whose end no scan was waited out for: opened in that test (a handle is never
    // older than its process), however late a scan first saw it.
    const spawnedIn = this.unconfirmedSpawnTest(row);
    if (spawnedIn !== null) return { test: spawnedIn, by: 'process-tree' };
    // Scans its process did not wait out may come late, out of their tests' order: the first test to end
    // among those whose scan saw it from its first sighting, where that sighting came before the process
    // went on.
    const after = this.boundariesOf(row).filter((b) => !b.scope && b.scanStartedAtMs >= row.firstScanStartedAtMs);
    const next = firstEnded(after.filter((b) => row.firstSeenAtMs <= (b.wentOnAtMs ?? Infinity)));
    if (next) return { test: next.test, by: next.by };
    const owner = testOfGoTempDir(row.holder.path, this.timeline.names());
    if (owner) return { test: owner, by: 'test-temp-dir' };
    // The polls' clock puts the first sighting outside any test (bats' formatter dates a test's start
    // late on a loaded machine), yet the process was spawned in a test and seen before that test
    // ended: a handle is never opened before its process began, so it was opened in that test.
    if (firstSeenDuring === null && row.member) {
      const spawned = this.spawnTestOf(row.member, row.holder.processStartedAtMs, row.stacks?.spawn);
      const end = this.timeline.endOf(spawned);
      if (spawned !== null && (end === null || row.firstSeenAtMs <= end)) return { test: spawned, by: 'process-tree' };
    }
    return { test: firstSeenDuring, by: firstSeenDuring === null ? null : 'poll' };
  }

  /** The test a holding's process was spawned in, when every scan at that test's end ran after its process went on. */
  private unconfirmedSpawnTest(row: LedgerRow): string | null {
    if (!row.member) return null;
    const spawned = this.spawnTestOf(row.member, row.holder.processStartedAtMs, row.stacks?.spawn);
    if (spawned === null) return null;
    const ends = this.boundariesOf(row).filter((b) => !b.scope && b.test === spawned);
    return ends.length > 0 && ends.every((b) => b.wentOnAtMs !== undefined) ? spawned : null;
  }

  /**
   * A boundary speaks of a holding seen first before it: a scan's, when it began after that sighting;
   * a process's own list, always (it is exact whatever a poll saw meanwhile).
   */
  private isAfterFirstSight(b: Boundary, row: LedgerRow): boolean {
    return b.by === 'self-inventory' || b.scanStartedAtMs >= row.firstScanStartedAtMs;
  }

  /**
   * The test a recorded open names, as the timeline names it: a Go test binary writes `TestX`, while
   * `go test -json` names it `<package>.TestX`; among packages with a test of that name, the one that
   * had started last by the open.
   */
  private recordedTest(stack: OpenStack): string | undefined {
    const test = stack.test ?? undefined;
    if (test === undefined || stack.runtime !== 'strace') return test;
    const named = this.timeline.startsOf((name) => name === test || name.endsWith(`.${test}`));
    const started = named.filter((t) => t.startedAtMs <= stack.atMs + RUNNER_LAG_MS);
    return (started.at(-1) ?? named.at(-1))?.name ?? test;
  }

  /**
   * Whether a holding existed before the first test began (known only where the test process stamped
   * the tests' starts: one read from output, go test's, may be stamped well after it): seen by a scan
   * that ended before then, or one its process has had since it started, when that was before: its
   * executable, its root, or the run's own working directory, which the command was started in (the
   * runner's cwd in a watched project).
   */
  private presentBeforeFirstTest(row: LedgerRow): boolean {
    const before = (ms: number) => this.timeline.beforeFirstTest(ms);
    if (before(row.firstSeenAtMs)) return true;
    const { kind, path, processStartedAtMs } = row.holder;
    const sinceItsStart = kind === 'exe' || kind === 'root' || (kind === 'cwd' && path === this.start?.cwd);
    return sinceItsStart && before(processStartedAtMs);
  }

  /**
   * The boundaries that speak for a holder: a scan its own process or an ancestor (its test process)
   * waited for; a list of its own process only. A test process lists its own fds, not its children's:
   * a child forked in a test, holding past it, is absent from that list yet still holds.
   */
  private boundariesOf(row: LedgerRow): Boundary[] {
    if (this.boundaries.length === 0 || !row.member) return [];
    const family = new Set([row.holder.pid, ...row.member.ancestry.map((a) => a.pid)]);
    return this.boundaries.filter((b) => (b.by === 'self-inventory' ? b.pid === row.holder.pid : family.has(b.pid)));
  }
}

function firstEnded(boundaries: readonly Boundary[]): Boundary | undefined {
  let first: Boundary | undefined;
  for (const b of boundaries) if (!first || b.endedAtMs < first.endedAtMs) first = b;
  return first;
}

function closedByFinalizerOf({ atMs, during, resource, api }: NonNullable<LedgerRow['closedByFinalizer']>): Attribution['closedByFinalizer'] {
  return { at: new Date(atMs).toISOString(), during, resource, api };
}

/**
 * The holder's command line, or where the scan that met it could not read one (a process busy or
 * being torn down when asked: Windows reads it from the process's memory), the one the run read when
 * the process joined it.
 */
function commandLineOf(row: LedgerRow): string {
  const own = row.member?.ancestry[0];
  return row.holder.commandLine === '' && own?.pid === row.holder.pid ? own.commandLine : row.holder.commandLine;
}
